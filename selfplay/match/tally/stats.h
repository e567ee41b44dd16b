// SPDX-License-Identifier: MIT
// Match statistics: Elo and normalised Elo with 95% error bars, LOS, and the SPRT
// log-likelihood ratio, from win/draw/loss counts or from pentanomial game-pair counts.
// The models follow fastchess (normalised Elo and its GSPRT after Michel Van den Bergh,
// "Comments on Normalized Elo", https://www.cantate.be/Fishtest/normalized_elo_practical.pdf).
// Janggi has no draws: every function works when the draw counts are zero.
#pragma once

#include <stdbool.h>

/// Pentanomial classes: the points a game pair scored for the first engine, in half points
/// of the pair (0 = lost both ... 4 = won both; 2 = one win and one loss, or two draws).
enum { PENTA_LL = 0, PENTA_LD, PENTA_WL_DD, PENTA_WD, PENTA_WW, PENTA_NB };

/// Point estimates and 95% confidence half-widths. Elo is logistic Elo; nelo is normalised
/// Elo (score excess over its standard deviation, scaled by 800 / ln 10). Both errors are the
/// half-width of the 95% interval of the score mapped to that scale, as fastchess prints
/// "± error". los is the likelihood of superiority, 0..1. score is the mean score, 0..1.
/// With no games everything is 0. When all samples are alike (no spread) nelo is 0 or
/// +-infinity, elo +-infinity unless the score is 1/2, and both errors are 0.
typedef struct EloEstimate {
    double score;
    double elo, elo_error;
    double elo_lower, elo_upper; // the 95% interval itself (a bound is infinite near 0 or 1)
    double nelo, nelo_error;
    double los;
} EloEstimate;

/// Estimates from game counts (trinomial model: each game an independent sample).
EloEstimate stats_elo_wdl(long wins, long draws, long losses);

/// Estimates from pentanomial pair counts (each game pair one sample).
EloEstimate stats_elo_penta(const long penta[PENTA_NB]);

/// An SPRT on normalised Elo between elo0 (H0) and elo1 (H1), error rates alpha and beta.
typedef struct Sprt {
    double elo0, elo1, alpha, beta;
    double lower, upper; // LLR bounds: log(beta / (1 - alpha)), log((1 - beta) / alpha)
} Sprt;

typedef enum { SPRT_CONTINUE = 0, SPRT_H0, SPRT_H1 } SprtResult;

/// Fills s and checks elo0 < elo1, 0 < alpha, beta and alpha + beta < 1. False when not.
bool stats_sprt_init(Sprt *s, double elo0, double elo1, double alpha, double beta);

/// Generalised log-likelihood ratio of H1 against H0 from pentanomial pair counts, on the
/// normalised-Elo model (maximum likelihood distributions with a given t = (mu - 1/2) / sigma).
/// Empty classes count as 0.001 pairs, as fastchess does. 0 with no pairs; finite for any
/// bounds (stats.c solves the constrained maximum without fastchess's fixed-point iteration,
/// which gives NaN from about 232 nElo).
double stats_sprt_llr_penta(const Sprt *s, const long penta[PENTA_NB]);

/// The same on the trinomial model from game counts.
double stats_sprt_llr_wdl(const Sprt *s, long wins, long draws, long losses);

/// Which bound llr has crossed, if any.
SprtResult stats_sprt_decide(const Sprt *s, double llr);
