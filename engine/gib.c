// SPDX-License-Identifier: MIT
// .gib janggi records read and replayed by the rules core (gib.h; the format in docs/gib.md).
#include "gib.h"

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "files.h"
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

// The parser's state: the records so far, the one being read, where it is.
typedef struct Reader {
    const char *name;
    int line;
    GibGame *games;
    size_t n, cap;
    GibGame *g;   // the record being read (games[n - 1]), NULL before the first
    Board *board; // its position, once its moves began
    bool cho_set, han_set, in_comment;
    bool in_moves; // the record's moves began: a tag now starts the next record
    long total;    // [총수], -1 when absent
    int total_line;
} Reader;

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
    if (!r->g)
        return STATUS_OK;
    if (!r->cho_set || !r->han_set)
        return error_set(err, STATUS_FORMAT, "%s:%d: the record has no [%s \"...\"] tag", r->name,
                         r->g->line, r->cho_set ? "한차림" : "초차림");
    if (r->total >= 0 && r->total != r->g->nmoves)
        return error_set(err, STATUS_FORMAT,
                         "%s:%d: [총수 \"%ld\"] but the record has %d moves (truncated?)", r->name,
                         r->total_line, r->total, r->g->nmoves);
    return STATUS_OK;
}

// Starts a new record at the current line.
static Status start_record(Reader *r, ErrorInfo *err) {
    Status st = finish_record(r, err);
    if (st != STATUS_OK)
        return st;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1;
        GibGame *g = realloc(r->games, cap * sizeof *g);
        if (!g)
            return error_set(err, STATUS_NOMEM, "%s: out of memory", r->name);
        r->games = g, r->cap = cap;
    }
    r->g = &r->games[r->n++];
    memset(r->g, 0, sizeof *r->g);
    r->g->line = r->line;
    set_date(r->g->date, "");
    r->cho_set = r->han_set = r->in_moves = false;
    r->total = -1;
    return STATUS_OK;
}

// A header line: [KEY "VALUE"]. Starts a new record when the current one has moves.
static Status read_tag(Reader *r, const char *s, ErrorInfo *err) {
    const char *key = s + 1, *sp = strchr(key, ' '), *q1 = strchr(key, '"');
    const char *q2 = q1 ? strrchr(q1 + 1, '"') : NULL;
    if (!sp || !q1 || sp > q1 || !q2 || strcmp(q2 + 1, "]") != 0)
        return error_set(err, STATUS_SYNTAX,
                         "%s:%d: malformed tag '%.*s' (expected [KEY \"VALUE\"])", r->name, r->line,
                         CLIP(s, 60));
    if (!r->g || r->in_moves) {
        Status st = start_record(r, err);
        if (st != STATUS_OK)
            return st;
    }
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
                     r->g->nmoves + 1, CLIP(tok, 40), why);
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
                             r->name, r->line, r->g->nmoves + 1, CLIP(tok, 40));
        Square to = gib_square(p + l);
        if (from == SQ_NONE || to == SQ_NONE)
            return illegal(r, tok, "a square off the board", err);
        const char *rest = p + l + 2;
        Kind taken = KIND_NONE;
        if (strcmp(rest, "장군") != 0 && strcmp(rest, "멍군") != 0) // check, answered check
            rest += piece_name(rest, &taken);
        if (*rest && strcmp(rest, "장군") != 0 && strcmp(rest, "멍군") != 0)
            return error_set(err, STATUS_SYNTAX, "%s:%d: move %d '%.*s': unexpected '%.*s'",
                             r->name, r->line, r->g->nmoves + 1, CLIP(tok, 40), CLIP(rest, 20));
        Piece pc = board_at(b, from), victim = board_at(b, to);
        if (pc == EMPTY || piece_side(pc) != side || piece_kind(pc) != kind)
            return illegal(r, tok, "the side to move has not that piece there", err);
        if (taken != KIND_NONE && (victim == EMPTY || piece_kind(victim) != taken))
            return illegal(r, tok, "the captured piece named is not there", err);
        char a[4], c[4];
        square_to_str(from, a), square_to_str(to, c);
        snprintf(uci, sizeof uci, "%s%s", a, c);
    }
    if (r->g->nmoves == GIB_MOVES_MAX)
        return error_set(err, STATUS_RANGE, "%s:%d: more than %d moves", r->name, r->line,
                         GIB_MOVES_MAX);
    Move m;
    ErrorInfo why;
    if (move_parse_uci(b, uci, &m, &why) != STATUS_OK)
        return illegal(r, tok, why.msg, err);
    board_make(b, m);
    r->g->moves[r->g->nmoves++] = m;
    return STATUS_OK;
}

// A line of moves: "N. MOVE" pairs (also "N.MOVE"); "<...>" tokens skipped (docs/gib.md).
static Status read_moves(Reader *r, char *s, ErrorInfo *err) {
    if (!r->g || !r->cho_set || !r->han_set)
        return error_set(err, STATUS_FORMAT,
                         "%s:%d: moves before the [초차림] and [한차림] tags "
                         "('%.*s')",
                         r->name, r->line, CLIP(s, 40));
    if (!r->board) {
        r->board = malloc(sizeof *r->board);
        if (!r->board)
            return error_set(err, STATUS_NOMEM, "%s: out of memory", r->name);
    }
    if (!r->in_moves)
        formation_setup(r->board, r->g->cho, r->g->han);
    r->in_moves = true;
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
                                 r->name, r->line, CLIP(tok, 40), r->g->nmoves + 1);
            if (num != r->g->nmoves + 1)
                return error_set(err, STATUS_SYNTAX,
                                 "%s:%d: move number %ld where %d was "
                                 "expected",
                                 r->name, r->line, num, r->g->nmoves + 1);
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
                         r->line, r->g->nmoves + 1);
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

// The offset of the first byte of s[0..len) that is not well-formed UTF-8; len when none.
static size_t utf8_valid_prefix(const unsigned char *s, size_t len) {
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        size_t n = c < 0x80             ? 0
                   : (c & 0xE0) == 0xC0 ? 1
                   : (c & 0xF0) == 0xE0 ? 2
                   : (c & 0xF8) == 0xF0 ? 3
                                        : 9;
        if (n == 9 || (n == 1 && c < 0xC2) || (n > 0 && i + n >= len))
            return i;
        for (size_t k = 1; k <= n; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += n + 1;
    }
    return len;
}

// The line of byte offset off in text.
static int line_of(const char *text, size_t off) {
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

// text as UTF-8 in a malloc'ed string: copied when UTF-8, else converted from CP949.
// 0xFF and Ctrl-Z (0x1A) bytes, found in files of old DOS programs, are dropped first.
static Status to_utf8(const char *name, const char *text, size_t len, char **out, ErrorInfo *err) {
    char *clean = malloc(len + 1), *conv = NULL;
    size_t n = 0;
    if (!clean)
        return error_set(err, STATUS_NOMEM, "%s: out of memory", name);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1A)) {
            free(clean);
            return error_set(err, STATUS_FORMAT,
                             "%s:%d: binary data (byte 0x%02x), not a .gib "
                             "record",
                             name, line_of(text, i), c);
        }
        if (c != 0xFF && c != 0x1A)
            clean[n++] = (char)c;
    }
    clean[n] = '\0';
    size_t skip = n >= 3 && memcmp(clean, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    size_t utf8_end = skip + utf8_valid_prefix((const unsigned char *)clean + skip, n - skip);
    if (utf8_end == n) {
        memmove(clean, clean + skip, n - skip + 1);
        *out = clean;
        return STATUS_OK;
    }
    iconv_t cd = iconv_open("UTF-8", "CP949");
    size_t cap = n * 2 + 1, left_in = n, left_out = cap - 1;
    conv = cd == (iconv_t)-1 ? NULL : malloc(cap);
    char *in = clean, *o = conv;
    Status st = STATUS_OK;
    if (!conv)
        st = error_set(err, cd == (iconv_t)-1 ? STATUS_FORMAT : STATUS_NOMEM,
                       "%s: not UTF-8, and CP949 cannot be converted here", name);
    else if (iconv(cd, &in, &left_in, &o, &left_out) == (size_t)-1) {
        // The reading that went further names the place: UTF-8 text with a bad byte in it
        // fails as CP949 early, at its first Hangul.
        size_t off = (size_t)(in - clean) > utf8_end ? (size_t)(in - clean) : utf8_end;
        st = error_set(err, STATUS_FORMAT,
                       "%s:%d: neither UTF-8 nor CP949 (EUC-KR) text "
                       "(byte 0x%02x)",
                       name, line_of(clean, off), (unsigned char)clean[off]);
    }
    if (cd != (iconv_t)-1)
        iconv_close(cd);
    free(clean);
    if (st != STATUS_OK) {
        free(conv);
        return st;
    }
    *o = '\0';
    *out = conv;
    return STATUS_OK;
}

Status gib_parse(const char *name, const char *text, size_t len, GibGame **games, size_t *n,
                 ErrorInfo *err) {
    *games = NULL, *n = 0;
    char *utf8 = NULL;
    Status st = to_utf8(name, text, len, &utf8, err);
    Reader r = {.name = name, .total = -1};
    for (char *s = utf8, *next; st == STATUS_OK && s && *s; s = next) {
        next = strchr(s, '\n');
        if (next)
            *next++ = '\0';
        size_t l = strlen(s);
        if (l > 0 && s[l - 1] == '\r')
            s[l - 1] = '\0';
        r.line++;
        st = read_line(&r, s, err);
    }
    if (st == STATUS_OK)
        st = finish_record(&r, err);
    if (st == STATUS_OK && r.n == 0)
        st = error_set(err, STATUS_FORMAT, "%s: no game record (no [초차림 ...] tag)", name);
    free(utf8);
    free(r.board);
    if (st != STATUS_OK) {
        free(r.games);
        return st;
    }
    *games = r.games, *n = r.n;
    return STATUS_OK;
}

Status gib_read_file(const char *path, GibGame **games, size_t *n, ErrorInfo *err) {
    FILE *f = NULL;
    *games = NULL, *n = 0;
    Status st = files_open_input(path, "rb", &f, err);
    if (st != STATUS_OK)
        return st;
    char *buf = malloc(GIB_FILE_MAX + 1);
    size_t len = buf ? fread(buf, 1, GIB_FILE_MAX + 1, f) : 0;
    if (!buf)
        st = error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    else if (ferror(f))
        st = error_set(err, STATUS_IO, "%s: read failed", path);
    else if (len > GIB_FILE_MAX)
        st = error_set(err, STATUS_RANGE, "%s: larger than %d bytes, not a .gib record", path,
                       GIB_FILE_MAX);
    fclose(f);
    if (st == STATUS_OK)
        st = gib_parse(path, buf, len, games, n, err);
    free(buf);
    return st;
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
