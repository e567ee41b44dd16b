// SPDX-License-Identifier: MIT
// What the match tool's end-to-end tests share (test_match.c, test_match_resume.c): fake engines,
// a small match's settings, temporary files and the checks of a tally.
#pragma once
#include <stddef.h>

#include "match.h"

#ifndef FAKE_ENGINE_PATH
#define FAKE_ENGINE_PATH HANSU_BINARY_DIR "/tests/fake_engine"
#endif

// An engine spec for tests/selfplay/match/fake_engine.c in `mode` (good, crash, hang, ...), with
// its optional argument n (NULL: none).
void fake_spec(EngineSpec *e, const char *name, const char *mode, const char *n);

// A match of `games` games at 1 node a move, one at a time, a 2 s watchdog.
MatchConfig base_config(int games);

// A temporary file name in the build folder, unique per test process and tag.
void temp_path(char *out, size_t len, const char *tag);

// How many lines of the file at path hold needle (0 when the file is missing).
int count_in_file(const char *path, const char *needle);

// The totals of a janggi match of `pairs` finished pairs add up: games, wins, the pentanomial
// classes and the end reasons (no draws).
void assert_consistent(const MatchTally *t, int pairs);
