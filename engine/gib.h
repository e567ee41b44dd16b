// SPDX-License-Identifier: MIT
// Reader of .gib janggi game records (the Korean format; docs/gib.md): header tags such as
// [초차림 "마상상마"], numbered moves such as "1. 79졸78", each replayed and checked by the rules
// core from the start position the formations give.
#pragma once

#include <stddef.h>

#include "janggi/formation.h"
#include "status.h"
#include "types.h"

enum {
    GIB_TEXT_MAX = 96,           // a header value is kept up to this many bytes (UTF-8)
    GIB_FILE_MAX = 1 << 22,      // a larger file is refused (4 MiB; a record is a few KB)
    GIB_MOVES_MAX = MAX_GAME_PLY // a longer record is refused
};

/// The result a record's [대국결과 ...] tag states.
typedef enum {
    GIB_RESULT_UNKNOWN = 0, // no tag, or a text that names no winner ("미상")
    GIB_RESULT_CHO,         // the text starts with 초 or 楚 ("초 완승", "초 기권승")
    GIB_RESULT_HAN,         // the text starts with 한 or 漢
    GIB_RESULT_DRAW         // the text starts with 무 ("무승부")
} GibResult;

/// One game of a .gib file, its header values as UTF-8 ("" when the tag is absent).
typedef struct GibGame {
    int line;         // the file line where the record starts
    Formation cho;    // Cho's formation (formation.h: from the player's own left)
    Formation han;    // Han's, converted from the file's left-to-right order (docs/gib.md)
    GibResult result; // from [대국결과]
    char event[GIB_TEXT_MAX], site[GIB_TEXT_MAX], round[GIB_TEXT_MAX];
    char date[GIB_TEXT_MAX]; // as PGN writes it: YYYY.MM.DD, "????.??.??" when not given
    char cho_player[GIB_TEXT_MAX], han_player[GIB_TEXT_MAX], result_text[GIB_TEXT_MAX];
    Move moves[GIB_MOVES_MAX]; // each legal in turn from the formations' start position
    int nmoves;
} GibGame;

/// Reads every record of the text of a .gib file (len bytes; name is used in messages only).
/// The text is UTF-8 (a byte order mark skipped) or, when it is not valid UTF-8, CP949/EUC-KR,
/// converted with iconv. Every move is checked: its squares on the board, the named piece of
/// the side to move on its from-square, the move legal (movegen), a named captured piece on
/// its to-square, the move numbers in order, and the [총수] tag (the move count) when given.
/// Errors "NAME:LINE: what (the offending text)": STATUS_FORMAT (binary data, an encoding
/// that is neither, no record, a record without formations), STATUS_SYNTAX (a malformed tag
/// or move), STATUS_ILLEGAL (a move against the rules), STATUS_RANGE (too long), STATUS_NOMEM.
/// On success *games holds *n >= 1 records (free with gib_free); on error nothing is kept.
Status gib_parse(const char *name, const char *text, size_t len, GibGame **games, size_t *n,
                 ErrorInfo *err);

/// gib_parse of the file at path (a regular file of at most GIB_FILE_MAX bytes; STATUS_IO or
/// STATUS_RANGE naming it otherwise).
Status gib_read_file(const char *path, GibGame **games, size_t *n, ErrorInfo *err);

/// The FEN of a record's start position (fen.h; at least FEN_BUFFER bytes).
void gib_start_fen(const GibGame *g, char *out, size_t out_len);

/// Frees what gib_parse returned (NULL accepted).
void gib_free(GibGame *games);
