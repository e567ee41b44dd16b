// SPDX-License-Identifier: MIT
// The rating list (rating.h): Newton's method on the logistic model's log-likelihood, then
// simulations from each pairing's pentanomial counts for errors and LOS.
#include "rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ITERATIONS = 200 };

static const double UNIT = 400.0 / M_LN10; // Elo per natural-log unit of the odds
static const double STEP_MAX = 2.0;        // per iteration and player, in log-odds (~350 Elo)

// Solves (a + ridge) x = b in place by Gaussian elimination with partial pivoting; a is n x n.
// The ridge keeps a player without games (a zero row) and a group's free offset from making
// the system singular: such directions just get no step.
static void solve(int n, double a[][RATING_MAX_PLAYERS], double b[]) {
    for (int i = 0; i < n; i++)
        a[i][i] += 1e-9;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        for (int k = 0; k < n; k++) {
            double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < n; r++) {
            double f = a[r][c] / a[c][c];
            for (int k = c; k < n; k++)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        for (int k = r + 1; k < n; k++)
            b[r] -= a[r][k] * b[k];
        b[r] /= a[r][r];
    }
}

// Points and games of a pairing from its pairs: a pair of class h scores h/2 in 2 games.
static void pairing_score(const long penta[PENTA_NB], double *points, double *games) {
    *points = *games = 0;
    for (int h = 0; h < PENTA_NB; h++) {
        *points += penta[h] * h / 2.0;
        *games += 2.0 * penta[h];
    }
}

// The same with one drawn game more where one side won every game (none played: none added).
static bool fitted_score(const long penta[PENTA_NB], double *points, double *games) {
    pairing_score(penta, points, games);
    bool whole = *games > 0 && (*points == 0 || *points == *games);
    if (whole) {
        *points += 0.5;
        *games += 1;
    }
    return whole;
}

// One Newton step on x (log-odds ratings); returns the largest change.
static double newton_step(int n, const RatingPairing *g, int ng, double x[]) {
    double fisher[RATING_MAX_PLAYERS][RATING_MAX_PLAYERS] = {{0}};
    double grad[RATING_MAX_PLAYERS] = {0};
    for (int k = 0; k < ng; k++) {
        double s, games;
        fitted_score(g[k].penta, &s, &games);
        double e = 1.0 / (1.0 + exp(x[g[k].b] - x[g[k].a]));
        double d = s - games * e, w = games * e * (1 - e);
        int a = g[k].a, b = g[k].b;
        grad[a] += d;
        grad[b] -= d;
        fisher[a][a] += w;
        fisher[b][b] += w;
        fisher[a][b] -= w;
        fisher[b][a] -= w;
    }
    solve(n, fisher, grad);
    double most = 0;
    for (int i = 0; i < n; i++) {
        double step = fmax(-STEP_MAX, fmin(STEP_MAX, grad[i]));
        x[i] += step;
        most = fmax(most, fabs(step));
    }
    return most;
}

static void fit(int n, const RatingPairing *g, int ng, double x[]) {
    for (int it = 0; it < MAX_ITERATIONS; it++)
        if (newton_step(n, g, ng, x) < 1e-10)
            break;
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += x[i] / n;
    for (int i = 0; i < n; i++)
        x[i] -= mean;
}

void rating_fit(int n, const RatingPairing *g, int ng, double elo[]) {
    double x[RATING_MAX_PLAYERS] = {0};
    fit(n, g, ng, x);
    for (int i = 0; i < n; i++)
        elo[i] = x[i] * UNIT;
}

// SplitMix64: a small generator with a seed, so a list is the same from the same games.
static double uniform(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

// A pairing's pairs drawn again, as many, from its own pentanomial frequencies; a pairing won
// whole draws as if it had one WL+DD pair more (the drawn game its fit counts), or its
// simulations would never differ and its error would read 0.
static void resample(const RatingPairing *in, RatingPairing *out, uint64_t *rng) {
    *out = (RatingPairing){.a = in->a, .b = in->b};
    double weight[PENTA_NB], total = 0;
    long pairs = 0;
    for (int h = 0; h < PENTA_NB; h++) {
        weight[h] = (double)in->penta[h];
        pairs += in->penta[h];
    }
    if (pairs > 0 && (in->penta[PENTA_LL] == pairs || in->penta[PENTA_WW] == pairs))
        weight[PENTA_WL_DD] += 1;
    for (int h = 0; h < PENTA_NB; h++)
        total += weight[h];
    for (long i = 0; i < pairs; i++) {
        double u = uniform(rng) * total, acc = weight[0];
        int h = 0;
        while (h < PENTA_NB - 1 && u >= acc)
            acc += weight[++h];
        out->penta[h]++;
    }
}

static void anchored(int n, const double x[], int anchor, double anchor_elo, double elo[]) {
    double shift = anchor >= 0 ? anchor_elo - x[anchor] * UNIT : 0;
    for (int i = 0; i < n; i++)
        elo[i] = x[i] * UNIT + shift;
    if (anchor >= 0)
        elo[anchor] = anchor_elo; // exactly, not within rounding
}

// Errors and LOS of out's players from simulated tournaments.
static void simulate(int n, const RatingPairing *g, int ng, int anchor, int simulations,
                     uint64_t seed, RatingList *out) {
    RatingPairing *sim = malloc((size_t)(ng ? ng : 1) * sizeof *sim);
    if (!sim)
        return;
    double sum[RATING_MAX_PLAYERS] = {0}, sq[RATING_MAX_PLAYERS] = {0};
    double above[RATING_MAX_PLAYERS] = {0}; // times order[k] beat order[k + 1]
    uint64_t rng = seed;
    for (int s = 0; s < simulations; s++) {
        for (int k = 0; k < ng; k++)
            resample(&g[k], &sim[k], &rng);
        double x[RATING_MAX_PLAYERS] = {0}, elo[RATING_MAX_PLAYERS];
        fit(n, sim, ng, x);
        anchored(n, x, anchor, 0, elo);
        for (int i = 0; i < n; i++) {
            sum[i] += elo[i];
            sq[i] += elo[i] * elo[i];
        }
        for (int k = 0; k + 1 < n; k++) {
            double d = elo[out->order[k]] - elo[out->order[k + 1]];
            above[k] += d > 0 ? 1.0 : d == 0 ? 0.5 : 0.0;
        }
    }
    for (int i = 0; i < n; i++) {
        double mean = sum[i] / simulations;
        out->error[i] = i == anchor ? 0 : 1.96 * sqrt(fmax(0, sq[i] / simulations - mean * mean));
    }
    for (int k = 0; k + 1 < n; k++)
        out->los_next[k] = above[k] / simulations;
    free(sim);
}

void rating_list(int n, const RatingPairing *g, int ng, int anchor, double anchor_elo,
                 int simulations, uint64_t seed, RatingList *out) {
    memset(out, 0, sizeof *out);
    out->n = n;
    double x[RATING_MAX_PLAYERS] = {0};
    fit(n, g, ng, x);
    anchored(n, x, anchor, anchor_elo, out->elo);
    for (int k = 0; k < ng; k++) {
        double s, games, s2, games2;
        pairing_score(g[k].penta, &s, &games);
        if (fitted_score(g[k].penta, &s2, &games2))
            out->prior[g[k].a] = out->prior[g[k].b] = true;
        out->points[g[k].a] += s;
        out->points[g[k].b] += games - s;
        out->games[g[k].a] += (long)games;
        out->games[g[k].b] += (long)games;
    }
    for (int i = 0; i < n; i++)
        out->order[i] = i;
    for (int i = 1; i < n; i++) // insertion sort, best first; ties keep the players' order
        for (int j = i; j > 0 && out->elo[out->order[j]] > out->elo[out->order[j - 1]]; j--) {
            int t = out->order[j];
            out->order[j] = out->order[j - 1];
            out->order[j - 1] = t;
        }
    if (simulations > 0)
        simulate(n, g, ng, anchor, simulations, seed, out);
}
