// SPDX-License-Identifier: MIT
// Xiangqi's perpetual chase (rules page, "Points this page pins down"): which side chased one
// same unprotected enemy piece with every one of its moves of a repetition cycle.
#pragma once

#include "types.h"

/// The chasing sides of the repetition cycle that runs from b->states[first] (the first of the
/// three occurrences, rules_repetition_start()) to the current position: chases[s] is true when
/// every move of side s in the cycle chased one same enemy piece (the definitions of attack,
/// protection and "same piece" are in chase.c). The cycle must hold no capture (asserted); a
/// pass in it (the search's null move) chases nothing. first < b->nstates - 1. Works on a
/// copy: b is unchanged.
void chase_in_cycle(const Board *b, int first, bool chases[SIDE_NB]);
