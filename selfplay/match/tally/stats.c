// SPDX-License-Identifier: MIT
// Elo, normalised Elo, LOS and the SPRT LLR from WDL or pentanomial counts.
#include "stats.h"

#include <math.h>
#include <stdbool.h>

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

// The normalised-Elo maximum-likelihood problem of the GSPRT (Van den Bergh, "Comments on
// Normalized Elo", section 4.1): D(t) = max_p sum phat_i log p_i over all p, less the same
// maximum over the p with (mu - 1/2) / sigma = t; the LLR is N (D(t0) - D(t1)).
//
// Van den Bergh's fixed-point iteration (as fastchess and fishtest run it) leaves the valid
// probabilities once |t| nears 1 (nElo about 232 pentanomial, 347 W/D/L) and every LLR is NaN.
// Here the constraint is replaced by a family of linear ones that a bracketed solve handles.
// For s > 0 and c = 1/2 + t s let phi_i(s) = a_i - 1/2 - t (s^2 + (a_i - c)^2) / (2 s), his phi
// at mu = c, sigma = s. Since sigma <= (s^2 + E(a - c)^2) / (2 s), with equality where sigma = s
// and mu = c, for t > 0 the halfspace sum_i p_i phi_i(s) >= 0 lies inside T(p) >= t and
// sum_i p_i phi_i(s) <= 0 holds all of T(p) <= t, each touching T(p) = t at the p of sigma s.
// With H(s) the empirical-likelihood cost of sum_i p_i phi_i(s) = 0 (one multiplier, see
// el_cost), D(t) is therefore the least H(s) where T(phat) < t (the maximum over T >= t lies on
// T = t) and the greatest H(s) where T(phat) > t (the convex side: T <= t), both reached at the
// sigma of the constrained maximum. t < 0 is the mirror image, t = 0 one linear constraint.
// The s are searched by golden section: where T(phat) > t, over the s whose halfspace phat leaves
// (s_range); else over the s where some phi_i(s) > 0 (H finite), one range per score above 1/2,
// since for large t the maximum sits near one score, any of them. Checked against a dense scan of
// s on 1500 random distributions and against the brute force of sprt_reference.py (test_stats).

enum { MLE_ITERS = 200 };

// max over theta of sum_i w_i log(1 + theta phi_i), the log-likelihood lost by the most likely p
// (p_i = w_i / (1 + theta phi_i)) with sum_i p_i phi_i = 0; infinite where no p has it.
// theta solves sum_i w_i phi_i / (1 + theta phi_i) = 0 (Van den Bergh, eq. 4.9), a falling
// function; p_i < 1 bounds it to 1 + theta phi_i > w_i, where Newton steps are bracketed by
// bisection.
static double el_cost(int n, const double *w, const double *phi) {
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < n; i++) {
        if (phi[i] > 0.0)
            lo = fmax(lo, -(1.0 - w[i]) / phi[i]);
        else if (phi[i] < 0.0)
            hi = fmin(hi, (1.0 - w[i]) / -phi[i]);
    }
    if (isinf(lo) && isinf(hi))
        return 0.0; // every phi_i is 0: w itself meets the constraint
    if (isinf(lo) || isinf(hi))
        return INFINITY;
    double theta = 0.0;
    for (int it = 0; it < MLE_ITERS; it++) {
        double f = 0.0, df = 0.0, scale = 0.0;
        for (int i = 0; i < n; i++) {
            double q = phi[i] / (1.0 + theta * phi[i]);
            f += w[i] * q;
            df += w[i] * q * q;
        }
        if (f == 0.0)
            break;
        if (f > 0.0)
            lo = theta;
        else
            hi = theta;
        double next = theta + f / df;
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        for (int i = 0; i < n; i++)
            scale = fmax(scale, fabs(phi[i]) / (1.0 + theta * phi[i]));
        bool done = fabs(next - theta) * scale < 1e-14;
        theta = next;
        if (done)
            break;
    }
    double cost = 0.0;
    for (int i = 0; i < n; i++)
        cost += w[i] * log1p(theta * phi[i]);
    return cost;
}

// H(s): el_cost with Van den Bergh's phi at mu = 1/2 + t s, sigma = s.
static double cost_at(int n, const double *a, const double *w, double t, double s) {
    double phi[PENTA_NB], c = 0.5 + t * s;
    for (int i = 0; i < n; i++)
        phi[i] = a[i] - 0.5 - t * (s * s + (a[i] - c) * (a[i] - c)) / (2.0 * s);
    return el_cost(n, w, phi);
}

// The s in (lo, hi) where H(s) is least (sign 1) or greatest (sign -1), by golden section,
// and that H.
static double golden(int n, const double *a, const double *w, double t, double lo, double hi,
                     double sign) {
    const double g = 0.5 * (sqrt(5.0) - 1.0);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = sign * cost_at(n, a, w, t, x1), f2 = sign * cost_at(n, a, w, t, x2);
    while (hi - lo > 1e-9 * hi) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = sign * cost_at(n, a, w, t, x1);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = sign * cost_at(n, a, w, t, x2);
        }
    }
    return sign * fmin(f1, f2);
}

// The s where sum_i p_i phi_i(s) > 0 for a p of mean 1/2 + d and variance var (t > 0): between
// the roots of (1 + t^2) t s^2 - 2 (1 + t^2) d s + t (var + d^2). False when there are none.
static bool s_range(double d, double var, double t, double *lo, double *hi) {
    double disc = (d * d - t * t * var) / (1.0 + t * t);
    if (d <= 0.0 || disc <= 0.0)
        return false;
    *lo = (d - sqrt(disc)) / t;
    *hi = (d + sqrt(disc)) / t;
    return true;
}

// D(t) for distribution w over the scores a (ascending, symmetric about 1/2), all w_i > 0.
static double mle_deficit(int n, const double *a, const double *w, double t) {
    double m[PENTA_NB];
    if (t < 0.0) { // the mirror image: scores a -> 1 - a, t -> -t
        for (int i = 0; i < n; i++)
            m[i] = w[n - 1 - i];
        return mle_deficit(n, a, m, -t);
    }
    double mu, var, lo, hi;
    mean_var(n, a, w, &mu, &var);
    if (t == 0.0)
        return cost_at(n, a, w, 0.0, 1.0); // phi_i = a_i - 1/2 for every s
    if (mu - 0.5 >= t * sqrt(var))
        return s_range(mu - 0.5, var, t, &lo, &hi) ? golden(n, a, w, t, lo, hi, -1.0) : 0.0;
    double best = INFINITY;
    for (int i = 0; i < n; i++) // sum p phi(s) = 0 needs some phi_i(s) > 0: s near (a_i - 1/2) / t
        if (s_range(a[i] - 0.5, 0.0, t, &lo, &hi))
            best = fmin(best, golden(n, a, w, t, lo, hi, 1.0));
    return best;
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
    double w[PENTA_NB];
    for (int i = 0; i < n; i++)
        w[i] = c[i] / total;
    return total * (mle_deficit(n, a, w, t0) - mle_deficit(n, a, w, t1));
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
