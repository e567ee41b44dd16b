// SPDX-License-Identifier: MIT
// Openings files: start positions for matches and self-play, one FEN a line, read and checked
// once here for every tool (hansu-match --openings, hansu-selfplay --openings).
#pragma once

#include "fen.h"
#include "status.h"
#include "types.h"

/// The most openings one file may hold.
enum { OPENINGS_MAX = 4096 };

/// The openings of one file, each as Hansu writes its FEN, in file order.
typedef struct Openings {
    char (*fen)[FEN_BUFFER]; // count entries
    int *line;               // the file line of each
    int count;
} Openings;

/// Reads the openings file at path as positions of variant v. The format: UTF-8 (a leading byte
/// order mark skipped), one FEN a line (as fen_parse_variant reads it, leading blanks skipped),
/// blank lines and comments (lines whose first non-blank character is '#') skipped whatever
/// their length (a line is always read whole, never in pieces); a comment
/// "# variant: NAME" (key and name in any case) declares the file's variant, and a file of
/// another variant than v, or of an unknown one, is refused. Each FEN is checked by the rules
/// core and stored as fen_write writes it. Errors name the file and line: STATUS_IO (cannot be
/// read), the FEN's status (bad FEN: "PATH:LINE: ..."), STATUS_FORMAT (another or an unknown
/// variant; no FEN in the file), STATUS_RANGE (more than OPENINGS_MAX; a line that is not a
/// comment and longer than FEN_MAX_INPUT + 7 bytes), STATUS_NOMEM. out is
/// empty on error; free with openings_free.
Status openings_load(const char *path, const Variant *v, Openings *out, ErrorInfo *err);

/// The name of variant v's compiled-in opening suite (its data/openings-<name>.fen when the build
/// found one: "data/openings-janggi.fen"), or NULL where it has none.
const char *openings_builtin_name(const Variant *v);

/// Reads variant v's compiled-in suite as openings_load reads a file (errors name the suite's
/// file); STATUS_IO where v has none.
Status openings_load_builtin(const Variant *v, Openings *out, ErrorInfo *err);

/// Frees what openings_load allocated and empties o (NULL accepted).
void openings_free(Openings *o);
