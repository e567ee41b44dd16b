// SPDX-License-Identifier: MIT
// PGN opening books (book.h) with comments and variations: the games read and each game's moves,
// worked by playing the expected moves on a board; malformed movetext named with file and line.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "book.h"
#include "engine.h"
#include "fen.h"
#include "notation.h"
#include "variant.h"

// Writes text to a fresh temporary .pgn file; its path in path.
static void write_book(char path[64], const char *text) {
    snprintf(path, 64, "/tmp/test_book_XXXXXX.pgn");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

// The FEN of janggi's start after the UCI moves of `moves` (space-separated).
static void fen_after(const char *moves, char fen[FEN_BUFFER]) {
    static Board b;
    ErrorInfo err;
    assert_int_equal(fen_parse_variant(&b, &VARIANT_JANGGI, VARIANT_JANGGI.start_fen, &err),
                     STATUS_OK);
    char list[256], *save = NULL;
    snprintf(list, sizeof list, "%s", moves);
    for (char *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        Move m;
        assert_int_equal(move_parse_uci(&b, w, &m, &err), STATUS_OK);
        board_make(&b, m);
    }
    fen_write(&b, fen, FEN_BUFFER);
}

// Loads text as a janggi PGN book (all plies) and checks one position per entry of want, the
// position after those moves, in order.
static void check_book(const char *text, const char *const *want, int nwant) {
    char path[64];
    write_book(path, text);
    Openings o;
    ErrorInfo err = {0};
    Status st = book_load(path, BOOK_PGN, -1, &VARIANT_JANGGI, &o, &err);
    unlink(path);
    if (st != STATUS_OK)
        fail_msg("book_load: %s", err.msg);
    assert_int_equal(o.count, nwant);
    for (int i = 0; i < nwant; i++) {
        char fen[FEN_BUFFER];
        fen_after(want[i], fen);
        if (strcmp(o.fen[i], fen) != 0)
            fail_msg("game %d: read %s, want after \"%s\" %s", i + 1, o.fen[i], want[i], fen);
    }
    openings_free(&o);
}

// Loads text and expects STATUS_FORMAT with a message holding each of the given parts.
static void check_refused(const char *text, const char *part1, const char *part2) {
    char path[64];
    write_book(path, text);
    Openings o;
    ErrorInfo err = {0};
    Status st = book_load(path, BOOK_PGN, -1, &VARIANT_JANGGI, &o, &err);
    unlink(path);
    if (st == STATUS_OK) {
        openings_free(&o);
        fail_msg("book accepted, want an error with \"%s\"", part1);
    }
    assert_int_equal(st, STATUS_FORMAT);
    if (!strstr(err.msg, part1) || !strstr(err.msg, part2))
        fail_msg("error \"%s\": want \"%s\" and \"%s\"", err.msg, part1, part2);
}

// A '(' or ')' inside a {comment} is the comment's text. An unclosed "(" in one left the reader
// inside a "variation" for the rest of the file (one game read of three, exit 0); a ")" in one
// ended the comment early and its next word was read as a move.
static void test_parens_in_comments(void **state) {
    (void)state;
    const char *book = "[Event \"a\"]\n"
                       "\n"
                       "1. b1c3 {:-(} b10c8 2. a4a5 *\n"
                       "\n"
                       "[Event \"b\"]\n"
                       "\n"
                       "1. c4c5 {idea 1) develop} g7g6 1-0\n"
                       "\n"
                       "[Event \"c\"]\n"
                       "\n"
                       "1. e4e5 {a ( b ) ) ( c} a7a6 2. i4i5 0-1\n";
    const char *want[] = {"b1c3 b10c8 a4a5", "c4c5 g7g6", "e4e5 a7a6 i4i5"};
    check_book(book, want, 3);
}

// Variations nest (and are skipped whole); ';' comments run to the end of the line, where a
// '{' or ')' is text; a {comment} runs over lines, a tag line inside it is text; '%' lines are
// escapes.
static void test_variations_and_line_comments(void **state) {
    (void)state;
    const char *book = "[Event \"a\"]\n"
                       "1. b1c3 (1. c4c5 (1. a4a5 a7a6) c7c6 {in (a variation}) 1... b10c8 ; ) {\n"
                       "2. h1g3 1/2-1/2\n"
                       "% an escape line: 1. a4a5 (\n"
                       "[Event \"b\"]\n"
                       "1. c4c5 {a comment over\n"
                       "[Event \"not a tag\"] two lines; 2. i4i5} c7c6 2. a4a5 ($1 2. i4i5) *\n"
                       "[Event \"c\"]\n"
                       "1. e4e5 ; a line comment (\n"
                       "g7g6\n";
    const char *want[] = {"b1c3 b10c8 h1g3", "c4c5 c7c6 a4a5", "e4e5 g7g6"};
    check_book(book, want, 3);
}

// A move number glued to its move ("1.b1c3", "1...b10c8"), as many PGN writers put it, is read
// as the number and the move (the move was refused before as a move "1.b1c3").
static void test_glued_move_numbers(void **state) {
    (void)state;
    const char *book = "[Event \"a\"]\n"
                       "1.b1c3 b10c8 2.a4a5 *\n"
                       "\n"
                       "[Event \"b\"]\n"
                       "1.c4c5 1...g7g6 2. e4e5 2...a7a6 1-0\n";
    const char *want[] = {"b1c3 b10c8 a4a5", "c4c5 g7g6 e4e5 a7a6"};
    check_book(book, want, 2);
    check_refused("[Event \"a\"]\n1.z9z9 *\n", "move \"z9z9\"", ":2:");
    check_refused("[Event \"a\"]\n1.b1c3aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa *\n", "too long",
                  ":2:");
}

// Movetext that cannot be read is refused with the file's line and the game's, not dropped.
static void test_malformed(void **state) {
    (void)state;
    check_refused("[Event \"a\"]\n1. a4a5 *\n\n[Event \"b\"]\n1. c4c5 {never closed\n2. a4a5 *\n",
                  ":6: the file ends inside the {comment} opened at line 5", "(game of line 4)");
    check_refused("[Event \"a\"]\n1. a4a5 (1. c4c5 *\n", ":2: the game ends inside the variation",
                  "opened at line 2 (game of line 1)");
    check_refused("[Event \"a\"]\n1. a4a5 (1. c4c5\n\n[Event \"b\"]\n1. c4c5 *\n",
                  ":4: a tag inside the variation '(' opened at line 2", "(game of line 1)");
    check_refused("1. a4a5 (1. c4c5 (1. e4e5)\n", ":1: the file ends inside the variation",
                  "opened at line 1");
    check_refused("[Event \"a\"]\n1. a4a5 a7a6) c4c5 *\n", ":2: a ')' without its '('",
                  "(game of line 1)");
    check_refused("[Event \"a\"]\n1. a4a5 a7a6} c4c5 *\n", ":2: a '}' outside a comment",
                  "(game of line 1)");
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parens_in_comments),
        cmocka_unit_test(test_variations_and_line_comments),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_glued_move_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
