// SPDX-License-Identifier: MIT
// Reader of .gib janggi game records (the Korean format; docs/gib.md): header tags such as
// [초차림 "마상상마"], numbered moves such as "1. 79졸78", each replayed and checked by the rules
// core from the start position the formations give.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "janggi/formation.h"
#include "rules.h"
#include "status.h"
#include "types.h"

enum {
    GIB_TEXT_MAX = 96,           // a header value is kept up to this many bytes (UTF-8)
    GIB_MOVES_MAX = MAX_GAME_PLY // a record of more moves is refused
};

/// The result a record's [대국결과 ...] tag states.
typedef enum {
    GIB_RESULT_UNKNOWN = 0, // no tag, or a text that names no winner ("미상")
    GIB_RESULT_CHO,         // the text starts with 초 or 楚 ("초 완승", "초 기권승")
    GIB_RESULT_HAN,         // the text starts with 한 or 漢
    GIB_RESULT_DRAW         // the text starts with 무 ("무승부")
} GibResult;

/// One game of a .gib file, its header values as UTF-8 ("" when the tag is absent). The game is
/// the record's moves up to where the rules end it (rules_game_over, as UCI judges a position's
/// moves): a record that goes on after two passes in a row, a repetition, bikjang or the
/// 200-ply limit keeps the moves up to that end, and counts the others in dropped.
typedef struct GibGame {
    int number;       // the record's number in its file, from 1
    int line;         // the file line where the record starts
    Formation cho;    // Cho's formation (formation.h: from the player's own left)
    Formation han;    // Han's, converted from the file's left-to-right order (docs/gib.md)
    GibResult result; // from [대국결과]
    char event[GIB_TEXT_MAX], site[GIB_TEXT_MAX], round[GIB_TEXT_MAX];
    char date[GIB_TEXT_MAX]; // as PGN writes it: YYYY.MM.DD, "????.??.??" when not given
    char cho_player[GIB_TEXT_MAX], han_player[GIB_TEXT_MAX], result_text[GIB_TEXT_MAX];
    Move moves[GIB_MOVES_MAX]; // each legal in turn from the formations' start position
    int nmoves;                // the game's plies
    int dropped;    // the record's moves after the rules ended the game (checked, not kept)
    GameResult end; // the rules' judgement after the last move: end.over when they end the game
} GibGame;

/// How an imported game ended, by one rule for every output (the PGN, the store): where the
/// rules end it (g->end.over), their reason and result (bikjang, repetition and two passes by
/// points, the 200-ply limit by points: docs/rules-janggi.md); else the record's stated result,
/// with reason REASON_RESIGN for a text saying 기권, REASON_TIME for 시간, REASON_NONE otherwise.
typedef struct GibOutcome {
    EndReason reason;
    bool known;     // a result is known (the rules', or the record's)
    bool draw;      // the record states a draw (janggi's rules give none)
    Side winner;    // when known and not drawn
    bool disagrees; // the record states a result other than the rules'
} GibOutcome;

/// The outcome of game g (GibOutcome).
GibOutcome gib_outcome(const GibGame *g);

/// A .gib file read record by record (opaque), so that a file of any size is read in little
/// memory and a malformed record refuses itself only.
typedef struct GibReader GibReader;

/// Opens the file at path (a regular file; STATUS_IO naming it otherwise) and judges its bytes
/// (gib_text.h: UTF-8 or CP949/EUC-KR; STATUS_FORMAT for binary data or neither encoding),
/// before any record is read. Free with gib_reader_close.
Status gib_reader_open(const char *path, GibReader **out, ErrorInfo *err);

/// The same over a text in memory (len bytes; name is used in messages only).
Status gib_reader_open_text(const char *name, const char *text, size_t len, GibReader **out,
                            ErrorInfo *err);

/// Reads the next record into *g and returns STATUS_OK; *end is set instead when no record is
/// left. Every move is checked: its squares on the board, the named piece of the side to move on
/// its from-square, the move legal (movegen), a named captured piece on its to-square, the move
/// numbers in order, and the [총수] tag (the move count) when given. A malformed record is
/// refused: "NAME:LINE: what (the offending text)", STATUS_SYNTAX (a malformed tag or move),
/// STATUS_FORMAT (no formations, moves before them, a set-up board, [총수] not the moves read),
/// STATUS_ILLEGAL (a move against the rules), STATUS_RANGE (more than GIB_MOVES_MAX moves), with
/// g->number and g->line naming it; the next call goes on with the record after it. A refusal
/// of the file itself has g->number 0: a file with no record at all (STATUS_FORMAT, once), or one
/// that cannot be read on (STATUS_IO, STATUS_NOMEM, STATUS_FORMAT for a file changed while read;
/// *end is set with them).
Status gib_reader_next(GibReader *r, GibGame *g, bool *end, ErrorInfo *err);

/// Frees r (NULL accepted) and closes its file.
void gib_reader_close(GibReader *r);

/// Every record of the text of a .gib file (len bytes; name is used in messages only), read as
/// gib_reader_next reads them, all or nothing: on success *games holds *n >= 1 records (free
/// with gib_free); the first refusal is returned and nothing is kept.
Status gib_parse(const char *name, const char *text, size_t len, GibGame **games, size_t *n,
                 ErrorInfo *err);

/// gib_parse of the file at path (STATUS_IO naming it when it is not a regular file).
Status gib_read_file(const char *path, GibGame **games, size_t *n, ErrorInfo *err);

/// The FEN of a record's start position (fen.h; at least FEN_BUFFER bytes).
void gib_start_fen(const GibGame *g, char *out, size_t out_len);

/// Frees what gib_parse returned (NULL accepted).
void gib_free(GibGame *games);
