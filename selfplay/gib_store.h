// SPDX-License-Identifier: MIT
// Imported .gib games (engine/gib.h) gathered into one file of the HDF5 store, so that real
// games are training data as self-play's are (hansu-selfplay gib --store; docs/gib.md).
#pragma once

#include <stddef.h>

#include "gib.h"
#include "status.h"

/// The games gathered so far (opaque).
typedef struct GibStore GibStore;

/// A new, empty store. STATUS_NOMEM.
Status gib_store_open(GibStore **out, ErrorInfo *err);

/// Adds the games of one file (path names them in notes) that the store can hold: a winner by
/// gib_outcome (the rules' where they end the game, else the record's), 1 to STORE_PLY_MAX
/// plies; a game is its moves up to where the rules end it (GibGame), as the PGN writes it.
/// The others are left out, each named on standard error with its file line and why; *skipped
/// counts them. Positions are stored unscored: score 0, flag bit 2 (not searched).
/// STATUS_NOMEM.
Status gib_store_add(GibStore *s, const char *path, const GibGame *games, size_t n, size_t *skipped,
                     ErrorInfo *err);

/// Writes the games to path as one complete store file (h5store_write), game ids 0, 1, ...
/// in the order added. STATUS_IO; STATUS_FORMAT when no game could be stored.
Status gib_store_write(GibStore *s, const char *path, ErrorInfo *err);

/// Frees s (NULL accepted).
void gib_store_free(GibStore *s);
