// SPDX-License-Identifier: MIT
// Elo, normalised Elo, LOS and the SPRT LLR from WDL or pentanomial counts.
#include "stats.h"

#include <math.h>

static const double Z95 = 1.959963984540054;     // two-sided 95% normal quantile
static const double NELO_SCALE = 800.0 / M_LN10; // normalised Elo per unit of t

static const double WDL_SCORES[3] = {0.0, 0.5, 1.0};
static const double PENTA_SCORES[PENTA_NB] = {0.0, 0.25, 0.5, 0.75, 1.0};

// Logistic Elo of a mean score; +-infinity at 1 and 0.
static double elo_of_score(double s) {
    if (s >= 1.0)
        return INFINITY;
    if (s <= 0.0)
        return -INFINITY;
    return -400.0 * log10(1.0 / s - 1.0) + 0.0; // + 0.0: no "-0.0" at a score of 1/2
}

static void mean_var(int n, const double *a, const double *p, double *mu, double *var) {
    double m = 0.0, v = 0.0;
    for (int i = 0; i < n; i++)
        m += a[i] * p[i];
    for (int i = 0; i < n; i++)
        v += p[i] * (a[i] - m) * (a[i] - m);
    *mu = m;
    *var = v;
}

// Estimates from n outcome classes. samples = games or pairs; root2 = sqrt(2) for pairs,
// since a pair's score has half the variance of one game at the same Elo (fastchess's nElo).
static EloEstimate estimate(int n, const double *a, const long *count, double root2) {
    EloEstimate est = {0};
    double total = 0.0, p[PENTA_NB];
    for (int i = 0; i < n; i++)
        total += (double)count[i];
    if (total <= 0.0)
        return est;
    for (int i = 0; i < n; i++)
        p[i] = (double)count[i] / total;
    double mu, var;
    mean_var(n, a, p, &mu, &var);
    double sd = sqrt(var / total); // standard error of the mean score
    est.score = mu;
    est.elo = elo_of_score(mu);
    if (var <= 0.0) { // every sample alike: no spread to normalise by, no error estimate
        est.nelo = mu > 0.5 ? INFINITY : mu < 0.5 ? -INFINITY : 0.0;
        est.los = mu > 0.5 ? 1.0 : mu < 0.5 ? 0.0 : 0.5;
        est.elo_lower = est.elo_upper = est.elo;
        return est;
    }
    est.elo_lower = elo_of_score(mu - Z95 * sd);
    est.elo_upper = elo_of_score(mu + Z95 * sd);
    est.elo_error = (est.elo_upper - est.elo_lower) / 2.0;
    est.nelo = (mu - 0.5) / (root2 * sqrt(var)) * NELO_SCALE;
    est.nelo_error = Z95 * sd / (root2 * sqrt(var)) * NELO_SCALE;
    est.los = 0.5 * (1.0 + erf((mu - 0.5) / (sd * M_SQRT2)));
    return est;
}

EloEstimate stats_elo_wdl(long wins, long draws, long losses) {
    long count[3] = {losses, draws, wins};
    return estimate(3, WDL_SCORES, count, 1.0);
}

EloEstimate stats_elo_penta(const long penta[PENTA_NB]) {
    return estimate(PENTA_NB, PENTA_SCORES, penta, M_SQRT2);
}

bool stats_sprt_init(Sprt *s, double elo0, double elo1, double alpha, double beta) {
    if (!(elo0 < elo1) || !(alpha > 0.0) || !(beta > 0.0) || !(alpha + beta < 1.0))
        return false;
    *s = (Sprt){.elo0 = elo0, .elo1 = elo1, .alpha = alpha, .beta = beta};
    s->lower = log(beta / (1.0 - alpha));
    s->upper = log((1.0 - beta) / alpha);
    return true;
}

// Solves sum_i phat_i phi_i / (1 + theta phi_i) = 0 for theta in (-1/max phi, -1/min phi),
// where the left side falls from +inf to -inf (Van den Bergh, eq. 4.9), by bisection.
static double solve_theta(int n, const double *phat, const double *phi) {
    double u = phi[0], v = phi[0];
    for (int i = 1; i < n; i++) {
        u = fmin(u, phi[i]);
        v = fmax(v, phi[i]);
    }
    double lo = -1.0 / v, hi = -1.0 / u;
    for (int it = 0; it < 100 && hi - lo > 1e-12 * (1.0 + fabs(lo)); it++) {
        double mid = 0.5 * (lo + hi), f = 0.0;
        for (int i = 0; i < n; i++)
            f += phat[i] * phi[i] / (1.0 + mid * phi[i]);
        if (f > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

// The distribution closest (maximum likelihood) to phat among those with
// (mu - 1/2) / sigma = t (Van den Bergh, section 4.1): a fixed-point iteration from uniform.
static void mle_normalized(int n, const double *a, const double *phat, double t, double *p) {
    for (int i = 0; i < n; i++)
        p[i] = 1.0 / n;
    for (int iter = 0; iter < 20; iter++) {
        double mu, var, phi[PENTA_NB];
        mean_var(n, a, p, &mu, &var);
        double sigma = sqrt(var);
        for (int i = 0; i < n; i++) {
            double z = (a[i] - mu) / sigma;
            phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z);
        }
        double theta = solve_theta(n, phat, phi), diff = 0.0;
        for (int i = 0; i < n; i++) {
            double q = phat[i] / (1.0 + theta * phi[i]);
            diff = fmax(diff, fabs(q - p[i]));
            p[i] = q;
        }
        if (diff < 1e-9)
            break;
    }
}

static double llr_normalized(int n, const double *a, const long *count, double t0, double t1) {
    double c[PENTA_NB], total = 0.0, raw = 0.0;
    for (int i = 0; i < n; i++) {
        raw += (double)count[i];
        c[i] = count[i] > 0 ? (double)count[i] : 1e-3; // empty classes as fastchess
        total += c[i];
    }
    if (raw <= 0.0)
        return 0.0;
    double phat[PENTA_NB], p0[PENTA_NB], p1[PENTA_NB], llr = 0.0;
    for (int i = 0; i < n; i++)
        phat[i] = c[i] / total;
    mle_normalized(n, a, phat, t0, p0);
    mle_normalized(n, a, phat, t1, p1);
    for (int i = 0; i < n; i++)
        llr += phat[i] * (log(p1[i]) - log(p0[i]));
    return total * llr;
}

double stats_sprt_llr_penta(const Sprt *s, const long penta[PENTA_NB]) {
    // Bounds are in per-game normalised Elo; a pair's t is sqrt(2) times larger.
    double t0 = M_SQRT2 * s->elo0 / NELO_SCALE, t1 = M_SQRT2 * s->elo1 / NELO_SCALE;
    return llr_normalized(PENTA_NB, PENTA_SCORES, penta, t0, t1);
}

double stats_sprt_llr_wdl(const Sprt *s, long wins, long draws, long losses) {
    long count[3] = {losses, draws, wins};
    return llr_normalized(3, WDL_SCORES, count, s->elo0 / NELO_SCALE, s->elo1 / NELO_SCALE);
}

SprtResult stats_sprt_decide(const Sprt *s, double llr) {
    if (llr >= s->upper)
        return SPRT_H1;
    if (llr <= s->lower)
        return SPRT_H0;
    return SPRT_CONTINUE;
}
