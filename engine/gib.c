// SPDX-License-Identifier: MIT
// .gib janggi records read record by record and replayed by the rules core (gib.h; the format
// in docs/gib.md); the text's encoding is gib_text.c's.
#define _POSIX_C_SOURCE 200809L // fmemopen
#include "gib.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "files.h"
#include "gib_text.h"
#include "notation.h"

// A piece name of a move, in Hangul or Hanja (UTF-8). GENERAL's 楚/漢 also name a side.
static const struct {
    const char *name;
    Kind kind;
} PIECE_NAMES[] = {
    {"장", GENERAL},  {"사", GUARD},   {"차", CHARIOT}, {"포", CANNON},  {"마", HORSE},
    {"상", ELEPHANT}, {"졸", SOLDIER}, {"병", SOLDIER}, {"將", GENERAL}, {"帥", GENERAL},
    {"楚", GENERAL},  {"漢", GENERAL}, {"士", GUARD},   {"仕", GUARD},   {"車", CHARIOT},
    {"包", CANNON},   {"砲", CANNON},  {"炮", CANNON},  {"馬", HORSE},   {"象", ELEPHANT},
    {"相", ELEPHANT}, {"卒", SOLDIER}, {"兵", SOLDIER},
};

// A record's refusal kept for a later call of gib_reader_next: its status, message and record.
typedef struct Refusal {
    Status st;
    ErrorInfo err;
    int number, line;
} Refusal;

// The reader's state: the file, the record being read, where it is.
struct GibReader {
    char *name; // the path, for messages
    FILE *f;
    GibText *text;
    int line;
    GibGame *g;   // the record being read (once records > 0)
    GibGame *out; // the caller's record, where a finished one is copied
    Board *board; // its position, once its moves began
    int records;  // records begun
    bool cho_set, han_set, in_comment;
    bool in_moves; // the record's moves began: a tag now starts the next record
    bool failed;   // the record was refused: its lines are skipped up to the next record
    bool ended;    // the rules ended the game: later moves are checked and counted, not kept
    bool at_end;   // the file was read to its end
    bool done;     // a record was finished (done_st; done_err on a refusal)
    Status done_st;
    ErrorInfo done_err;
    Refusal pending; // the next record refused on the line that finished the last
    long total;      // [총수], -1 when absent
    int total_line;
    int read; // the record's moves read, those after the game's end included
};
typedef GibReader Reader;

// The bytes of s to print, at most max and never part of a UTF-8 character: the arguments
// of a "%.*s" conversion.
static int clip_len(const char *s, int max) {
    int n = 0;
    while (s[n] && n < max)
        n++;
    if (s[n])
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    return n;
}
#define CLIP(s, max) clip_len(s, max), (s)

// Length of the piece name at s (3 bytes), its kind in *kind; 0 if none.
static int piece_name(const char *s, Kind *kind) {
    for (size_t i = 0; i < sizeof PIECE_NAMES / sizeof PIECE_NAMES[0]; i++) {
        size_t l = strlen(PIECE_NAMES[i].name);
        if (strncmp(s, PIECE_NAMES[i].name, l) == 0) {
            *kind = PIECE_NAMES[i].kind;
            return (int)l;
        }
    }
    return 0;
}

// Copies at most GIB_TEXT_MAX - 1 bytes of s[0..len), never cutting a UTF-8 character.
static void copy_text(char dst[GIB_TEXT_MAX], const char *s, size_t len) {
    if (len >= GIB_TEXT_MAX) {
        len = GIB_TEXT_MAX - 1;
        while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
            len--;
    }
    memcpy(dst, s, len);
    dst[len] = '\0';
}

// A formation as a .gib file writes it: the four points b, c, g, h from file a to file i.
// Cho's own left is file a, so Cho's reads as formation.h names it; Han's is reversed.
static Status parse_formation(Reader *r, const char *v, bool han, Formation *out, ErrorInfo *err) {
    static const char *const GIB_NAMES[FORMATION_NB] = {"마상상마", "상마상마", "마상마상",
                                                        "상마마상"};
    static const Formation REVERSED[FORMATION_NB] = {MA_SANG_SANG_MA, MA_SANG_MA_SANG,
                                                     SANG_MA_SANG_MA, SANG_MA_MA_SANG};
    for (int f = 0; f < FORMATION_NB; f++)
        if (strcmp(v, GIB_NAMES[f]) == 0) {
            *out = han ? REVERSED[f] : (Formation)f;
            return STATUS_OK;
        }
    return error_set(err, STATUS_SYNTAX,
                     "%s:%d: unknown formation '%.*s' (마상상마, 상마상마, "
                     "마상마상 or 상마마상)",
                     r->name, r->line, CLIP(v, 40));
}

static GibResult parse_result(const char *v) {
    if (strncmp(v, "초", 3) == 0 || strncmp(v, "楚", 3) == 0)
        return GIB_RESULT_CHO;
    if (strncmp(v, "한", 3) == 0 || strncmp(v, "漢", 3) == 0)
        return GIB_RESULT_HAN;
    return strncmp(v, "무", 3) == 0 ? GIB_RESULT_DRAW : GIB_RESULT_UNKNOWN;
}

// "2016-12-06" (or with dots or slashes) as PGN's "2016.12.06"; anything else unknown.
static void set_date(char dst[GIB_TEXT_MAX], const char *v) {
    int y, m, d;
    char s1, s2;
    if (sscanf(v, "%4d%c%2d%c%2d", &y, &s1, &m, &s2, &d) == 5 && s1 == s2 && strchr("-./", s1) &&
        m >= 1 && m <= 12 && d >= 1 && d <= 31)
        snprintf(dst, GIB_TEXT_MAX, "%04d.%02d.%02d", y, m, d);
    else
        snprintf(dst, GIB_TEXT_MAX, "????.??.??");
}

// Checks the record just finished: formations given, [총수] equal to the moves read.
static Status finish_record(Reader *r, ErrorInfo *err) {
    if (!r->cho_set || !r->han_set)
        return error_set(err, STATUS_FORMAT, "%s:%d: the record has no [%s \"...\"] tag", r->name,
                         r->g->line, r->cho_set ? "한차림" : "초차림");
    if (r->total >= 0 && r->total != r->read)
        return error_set(err, STATUS_FORMAT,
                         "%s:%d: [총수 \"%ld\"] but the record has %d moves (truncated?)", r->name,
                         r->total_line, r->total, r->read);
    return STATUS_OK;
}

// Ends the record being read, at the next record's first line or the end of the file: one not
// refused already is checked whole and handed out (r->done, the record copied to r->out).
static void end_record(Reader *r) {
    if (r->records == 0 || r->failed)
        return;
    r->done = true;
    r->done_st = finish_record(r, &r->done_err);
    if (r->done_st == STATUS_OK)
        memcpy(r->out, r->g, sizeof *r->g);
    r->out->number = r->g->number, r->out->line = r->g->line;
}

// Ends the record being read and starts a new one at the current line.
static void start_record(Reader *r) {
    end_record(r);
    memset(r->g, 0, sizeof *r->g);
    r->g->number = ++r->records;
    r->g->line = r->line;
    set_date(r->g->date, "");
    r->cho_set = r->han_set = r->in_moves = r->failed = r->ended = false;
    r->total = -1;
    r->read = 0;
}

// A header line: [KEY "VALUE"]. Starts a new record when the current one has moves.
static Status read_tag(Reader *r, const char *s, ErrorInfo *err) {
    if (r->records > 0 && r->failed && !r->in_moves)
        return STATUS_OK; // the header of a refused record
    if (r->records == 0 || r->in_moves)
        start_record(r);
    const char *key = s + 1, *sp = strchr(key, ' '), *q1 = strchr(key, '"');
    const char *q2 = q1 ? strrchr(q1 + 1, '"') : NULL;
    if (!sp || !q1 || sp > q1 || !q2 || strcmp(q2 + 1, "]") != 0)
        return error_set(err, STATUS_SYNTAX,
                         "%s:%d: malformed tag '%.*s' (expected [KEY \"VALUE\"])", r->name, r->line,
                         CLIP(s, 60));
    size_t klen = (size_t)(sp - key);
    char v[GIB_TEXT_MAX];
    copy_text(v, q1 + 1, (size_t)(q2 - q1 - 1));
    GibGame *g = r->g;
#define KEY_IS(k) (klen == strlen(k) && strncmp(key, k, klen) == 0)
    if (KEY_IS("초차림") || KEY_IS("초포진")) {
        r->cho_set = true;
        return parse_formation(r, v, false, &g->cho, err);
    }
    if (KEY_IS("한차림") || KEY_IS("한포진")) {
        r->han_set = true;
        return parse_formation(r, v, true, &g->han, err);
    }
    if (KEY_IS("판"))
        return error_set(err, STATUS_FORMAT, "%s:%d: a set-up board ([판 ...]) is not supported",
                         r->name, r->line);
    if (KEY_IS("총수")) {
        char *end;
        errno = 0;
        r->total = strtol(v, &end, 10);
        r->total_line = r->line;
        if (end == v || *end || errno || r->total < 0 || r->total > GIB_MOVES_MAX)
            return error_set(err, STATUS_SYNTAX, "%s:%d: [총수 \"%.*s\"] is not a move count",
                             r->name, r->line, CLIP(v, 20));
    } else if (KEY_IS("대국결과")) {
        memcpy(g->result_text, v, sizeof v);
        g->result = parse_result(v);
    } else if (KEY_IS("대회명")) {
        memcpy(g->event, v, sizeof v);
    } else if (KEY_IS("대국장소")) {
        memcpy(g->site, v, sizeof v);
    } else if (KEY_IS("회전")) {
        memcpy(g->round, v, sizeof v);
    } else if (KEY_IS("대국일자")) {
        set_date(g->date, v);
    } else if (KEY_IS("초대국자")) {
        memcpy(g->cho_player, v, sizeof v);
    } else if (KEY_IS("한대국자")) {
        memcpy(g->han_player, v, sizeof v);
    }
#undef KEY_IS
    return STATUS_OK; // other tags (제한시간, ...) are kept by no field
}

// A square written as two digits: the row 1..9, 0 (1 is Han's back row, 0 Cho's), the file 1..9
// from file a. SQ_NONE when off the board.
static Square gib_square(const char *s) {
    if (s[0] < '0' || s[0] > '9' || s[1] < '1' || s[1] > '9')
        return SQ_NONE;
    int row = s[0] == '0' ? 10 : s[0] - '0';
    return square_make(s[1] - '1', RANK_NB - row);
}

static bool two_digits(const char *s) {
    return s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9';
}

static Status illegal(Reader *r, const char *tok, const char *why, ErrorInfo *err) {
    return error_set(err, STATUS_ILLEGAL, "%s:%d: move %d '%.*s': %s", r->name, r->line,
                     r->read + 1, CLIP(tok, 40), why);
}

// Reads one move token ("79졸78", "74상42병", "79楚卒78", "85포55장군", "한수쉼") and plays it.
static Status read_move(Reader *r, const char *tok, ErrorInfo *err) {
    Board *b = r->board;
    Side side = b->side;
    char uci[MOVE_STR_LEN];
    if (strcmp(tok, "한수쉼") == 0) {
        snprintf(uci, sizeof uci, "0000");
    } else {
        Square from = gib_square(tok);
        const char *p = tok + (tok[0] && tok[1] ? 2 : strlen(tok));
        Kind kind = KIND_NONE, side_kind;
        int l = piece_name(p, &kind);
        if ((strncmp(p, "楚", 3) == 0 || strncmp(p, "漢", 3) == 0) &&
            piece_name(p + 3, &side_kind)) {
            if ((strncmp(p, "楚", 3) == 0) != (side == CHO))
                return illegal(r, tok, "the side named is not the side to move", err);
            kind = side_kind, l = 6;
        }
        if (!two_digits(tok) || l == 0 || !two_digits(p + l))
            return error_set(err, STATUS_SYNTAX,
                             "%s:%d: move %d '%.*s' is not a move "
                             "(digits, a piece, digits)",
                             r->name, r->line, r->read + 1, CLIP(tok, 40));
        Square to = gib_square(p + l);
        if (from == SQ_NONE || to == SQ_NONE)
            return illegal(r, tok, "a square off the board", err);
        const char *rest = p + l + 2;
        Kind taken = KIND_NONE;
        if (strcmp(rest, "장군") != 0 && strcmp(rest, "멍군") != 0) // check, answered check
            rest += piece_name(rest, &taken);
        if (*rest && strcmp(rest, "장군") != 0 && strcmp(rest, "멍군") != 0)
            return error_set(err, STATUS_SYNTAX, "%s:%d: move %d '%.*s': unexpected '%.*s'",
                             r->name, r->line, r->read + 1, CLIP(tok, 40), CLIP(rest, 20));
        Piece pc = board_at(b, from), victim = board_at(b, to);
        if (pc == EMPTY || piece_side(pc) != side || piece_kind(pc) != kind)
            return illegal(r, tok, "the side to move has not that piece there", err);
        if (taken != KIND_NONE && (victim == EMPTY || piece_kind(victim) != taken))
            return illegal(r, tok, "the captured piece named is not there", err);
        char a[4], c[4];
        square_to_str(from, a), square_to_str(to, c);
        snprintf(uci, sizeof uci, "%s%s", a, c);
    }
    if (r->read == GIB_MOVES_MAX)
        return error_set(err, STATUS_RANGE, "%s:%d: more than %d moves", r->name, r->line,
                         GIB_MOVES_MAX);
    Move m;
    ErrorInfo why;
    if (move_parse_uci(b, uci, &m, &why) != STATUS_OK)
        return illegal(r, tok, why.msg, err);
    board_make(b, m);
    r->read++;
    if (r->ended) { // the record goes on after the end of the game: checked, counted, not kept
        r->g->dropped++;
        return STATUS_OK;
    }
    r->g->moves[r->g->nmoves++] = m;
    // The rules judge each position as UCI's `position ... moves` does (rules_game_over).
    r->ended = rules_game_over(b, &r->g->end);
    return STATUS_OK;
}

// A line of moves: "N. MOVE" pairs (also "N.MOVE"); "<...>" tokens skipped (docs/gib.md).
static Status read_moves(Reader *r, char *s, ErrorInfo *err) {
    if (r->records == 0)
        start_record(r); // moves before any tag: a record of their own, refused below
    bool began = r->in_moves;
    r->in_moves = true;
    if (r->failed)
        return STATUS_OK; // the moves of a refused record
    if (!r->cho_set || !r->han_set)
        return error_set(err, STATUS_FORMAT,
                         "%s:%d: moves before the [초차림] and [한차림] tags "
                         "('%.*s')",
                         r->name, r->line, CLIP(s, 40));
    if (!began)
        formation_setup(r->board, r->g->cho, r->g->han);
    bool want_move = false;
    char *save = NULL;
    for (char *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (tok[0] == '<')
            continue;
        if (!want_move) {
            char *end;
            long num = strtol(tok, &end, 10);
            if (end == tok || *end != '.')
                return error_set(err, STATUS_SYNTAX,
                                 "%s:%d: '%.*s' where a move number "
                                 "(\"%d.\") was expected",
                                 r->name, r->line, CLIP(tok, 40), r->read + 1);
            if (num != r->read + 1)
                return error_set(err, STATUS_SYNTAX,
                                 "%s:%d: move number %ld where %d was "
                                 "expected",
                                 r->name, r->line, num, r->read + 1);
            want_move = true;
            if (!end[1])
                continue;
            tok = end + 1;
        }
        Status st = read_move(r, tok, err);
        if (st != STATUS_OK)
            return st;
        want_move = false;
    }
    if (want_move)
        return error_set(err, STATUS_SYNTAX, "%s:%d: move number %d without its move", r->name,
                         r->line, r->read + 1);
    return STATUS_OK;
}

// One line of UTF-8 text, without its end of line.
static Status read_line(Reader *r, char *s, ErrorInfo *err) {
    while (*s == ' ' || *s == '\t')
        s++;
    for (;;) { // comments {...}, possibly over several lines, are skipped
        if (r->in_comment) {
            char *close = strchr(s, '}');
            if (!close)
                return STATUS_OK;
            r->in_comment = false;
            s = close + 1;
        }
        char *open = strchr(s, '{');
        if (!open)
            break;
        *open = '\0';
        Status st = read_line(r, s, err);
        if (st != STATUS_OK)
            return st;
        r->in_comment = true;
        s = open + 1;
    }
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = '\0';
    if (len == 0)
        return STATUS_OK;
    return s[0] == '[' ? read_tag(r, s, err) : read_moves(r, s, err);
}

GibOutcome gib_outcome(const GibGame *g) {
    GibOutcome o = {.reason = REASON_NONE};
    bool stated = g->result != GIB_RESULT_UNKNOWN, stated_draw = g->result == GIB_RESULT_DRAW;
    Side stated_winner = g->result == GIB_RESULT_HAN ? HAN : CHO;
    if (g->end.over) {
        o.reason = g->end.reason, o.known = true, o.draw = g->end.draw, o.winner = g->end.winner;
        o.disagrees = stated && (stated_draw != o.draw || (!o.draw && stated_winner != o.winner));
        return o;
    }
    o.reason = strstr(g->result_text, "기권")   ? REASON_RESIGN
               : strstr(g->result_text, "시간") ? REASON_TIME
                                                : REASON_NONE;
    o.known = stated, o.draw = stated_draw, o.winner = stated_winner;
    return o;
}

// A reader of the stream f (owned from here on), its bytes judged.
static Status reader_open(const char *name, FILE *f, GibReader **out, ErrorInfo *err) {
    Reader *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r) {
        fclose(f);
        return error_set(err, STATUS_NOMEM, "%s: out of memory", name);
    }
    r->f = f;
    r->name = strdup(name);
    r->g = malloc(sizeof *r->g);
    r->board = malloc(sizeof *r->board);
    Status st = !r->name || !r->g || !r->board
                    ? error_set(err, STATUS_NOMEM, "%s: out of memory", name)
                    : gib_text_open(f, r->name, &r->text, err);
    if (st != STATUS_OK) {
        gib_reader_close(r);
        return st;
    }
    r->total = -1;
    *out = r;
    return STATUS_OK;
}

Status gib_reader_open(const char *path, GibReader **out, ErrorInfo *err) {
    FILE *f;
    *out = NULL;
    Status st = files_open_input(path, "rb", &f, err);
    return st == STATUS_OK ? reader_open(path, f, out, err) : st;
}

Status gib_reader_open_text(const char *name, const char *text, size_t len, GibReader **out,
                            ErrorInfo *err) {
    // fmemopen refuses an empty buffer on some C libraries: a blank line reads the same.
    FILE *f = len ? fmemopen((void *)text, len, "r") : fmemopen((void *)"\n", 1, "r");
    *out = NULL;
    if (!f)
        return error_set(err, STATUS_NOMEM, "%s: cannot read the text (%s)", name, strerror(errno));
    return reader_open(name, f, out, err);
}

// A record's refusal: its status and message, the record named in g.
static Status refuse(const Refusal *x, GibGame *g, ErrorInfo *err) {
    *err = x->err;
    g->number = x->number, g->line = x->line;
    return x->st;
}

// The refusal of the record end_record finished (which named it in r->out).
static Status done_refusal(const Reader *r, ErrorInfo *err) {
    *err = r->done_err;
    return r->done_st;
}

// At the end of the file: the last record, or the refusal of a file without any.
static Status read_end(Reader *r, GibGame *g, bool *end, ErrorInfo *err) {
    bool first = !r->at_end;
    r->at_end = true;
    if (first)
        end_record(r);
    if (r->done) {
        r->done = false;
        return r->done_st == STATUS_OK ? STATUS_OK : done_refusal(r, err);
    }
    *end = true;
    if (first && r->records == 0) {
        *end = false;
        g->number = g->line = 0;
        return error_set(err, STATUS_FORMAT, "%s: no game record (no [초차림 ...] tag)", r->name);
    }
    return STATUS_OK;
}

Status gib_reader_next(GibReader *r, GibGame *g, bool *end, ErrorInfo *err) {
    *end = false;
    r->out = g;
    if (r->pending.st != STATUS_OK) {
        Refusal x = r->pending;
        r->pending.st = STATUS_OK;
        return refuse(&x, g, err);
    }
    while (!r->at_end) {
        char *s;
        Status st = gib_text_line(r->text, &s, err);
        if (st != STATUS_OK) { // the file cannot be read on: nothing after this
            r->at_end = *end = true;
            g->number = g->line = 0;
            return st;
        }
        if (!s)
            break;
        r->line++;
        st = read_line(r, s, err);
        if (st != STATUS_OK) // the record is refused; its other lines are skipped
            r->failed = true;
        Refusal now = {st, {{0}}, r->records ? r->g->number : 0, r->records ? r->g->line : 0};
        if (st != STATUS_OK)
            now.err = *err;
        if (r->done) { // this line began the next record: the last one first
            r->done = false;
            r->pending = now;
            return r->done_st == STATUS_OK ? STATUS_OK : done_refusal(r, err);
        }
        if (st != STATUS_OK)
            return refuse(&now, g, err);
    }
    return read_end(r, g, end, err);
}

void gib_reader_close(GibReader *r) {
    if (!r)
        return;
    gib_text_close(r->text);
    if (r->f)
        fclose(r->f);
    free(r->name);
    free(r->g);
    free(r->board);
    free(r);
}

// Every record of r, all or nothing (gib_parse); r is closed.
static Status read_all(GibReader *r, GibGame **games, size_t *n, ErrorInfo *err) {
    GibGame *all = NULL;
    size_t count = 0, cap = 0;
    Status st = STATUS_OK;
    for (bool end = false; st == STATUS_OK;) {
        if (count == cap) {
            GibGame *more = realloc(all, (cap = cap ? cap * 2 : 1) * sizeof *all);
            if (!more) {
                st = error_set(err, STATUS_NOMEM, "%s: out of memory", r->name);
                break;
            }
            all = more;
        }
        st = gib_reader_next(r, &all[count], &end, err);
        if (end)
            break;
        count += st == STATUS_OK;
    }
    gib_reader_close(r);
    if (st != STATUS_OK) {
        free(all);
        return st;
    }
    *games = all, *n = count;
    return STATUS_OK;
}

Status gib_parse(const char *name, const char *text, size_t len, GibGame **games, size_t *n,
                 ErrorInfo *err) {
    GibReader *r;
    *games = NULL, *n = 0;
    Status st = gib_reader_open_text(name, text, len, &r, err);
    return st == STATUS_OK ? read_all(r, games, n, err) : st;
}

Status gib_read_file(const char *path, GibGame **games, size_t *n, ErrorInfo *err) {
    GibReader *r;
    *games = NULL, *n = 0;
    Status st = gib_reader_open(path, &r, err);
    return st == STATUS_OK ? read_all(r, games, n, err) : st;
}

void gib_start_fen(const GibGame *g, char *out, size_t out_len) {
    Board *b = malloc(sizeof *b);
    if (!b) {
        snprintf(out, out_len, "%s", FEN_START);
        return;
    }
    formation_setup(b, g->cho, g->han);
    fen_write(b, out, out_len);
    free(b);
}

void gib_free(GibGame *games) { free(games); }
