// SPDX-License-Identifier: MIT
// One-time start-up of the rules core: every table that is built once.
#pragma once

/// Builds the geometry and Zobrist tables. Safe to call more than once and from several
/// threads; every front end and test calls it before using a Board.
void engine_init(void);
