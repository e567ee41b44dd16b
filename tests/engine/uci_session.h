// SPDX-License-Identifier: MIT
// A UCI session in memory for tests: lines go to uci_handle_line, answers are read back from a
// memory stream, each call returning what the engine wrote since the one before.
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "uci.h"

typedef struct UciSession {
    UciContext *ctx;
    FILE *out;
    char *buf;
    size_t len, seen;
} UciSession;

/// Starts a session (a fresh UciContext writing into memory); asserts on failure.
void uci_session_open(UciSession *s);

/// Ends the session and frees its output.
void uci_session_close(UciSession *s);

/// Sends one line without waiting for a running search and returns the output written since
/// the last call (as uci_session_say; a search may still add to it).
const char *uci_session_send(UciSession *s, const char *line);

/// Sends one line, waits for any search it started and returns the output written since the
/// last call (at most 64 KiB; valid until the next call).
const char *uci_session_say(UciSession *s, const char *line);

/// How many times needle occurs in text (an answer of the session).
int uci_session_count(const char *text, const char *needle);

/// The number after key at its last occurrence in text (key " depth ": the last info line's
/// depth); -1 when key is not there.
long uci_session_last_value(const char *text, const char *key);
