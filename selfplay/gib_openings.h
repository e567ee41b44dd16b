// SPDX-License-Identifier: MIT
// Openings from imported .gib games (engine/gib.h): the position after a set number of plies of
// each game, written as an openings file (engine/openings.h) for hansu-match and self-play
// (hansu-selfplay gib --openings; docs/gib.md).
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "gib.h"
#include "status.h"

/// The positions gathered so far (opaque).
typedef struct GibOpenings GibOpenings;

/// A new, empty collection of the positions after `plies` plies (1..GIB_MOVES_MAX). STATUS_NOMEM.
Status gib_openings_open(int plies, GibOpenings **out, ErrorInfo *err);

/// Adds the position after the set plies of each game of one file that goes on past them (a
/// game of that many plies or fewer gives none); path:line names its record. STATUS_NOMEM.
Status gib_openings_add(GibOpenings *o, const char *path, const GibGame *games, size_t n,
                        ErrorInfo *err);

/// Writes the openings file to f: "# variant: janggi", a comment saying how it was made, then
/// each distinct FEN once, sorted, after a comment naming the first record that reached it.
/// *count gets the number of FENs. STATUS_IO ("NAME: write failed (cause)").
Status gib_openings_write(GibOpenings *o, FILE *f, const char *name, size_t *count, ErrorInfo *err);

/// Frees o (NULL accepted).
void gib_openings_free(GibOpenings *o);
