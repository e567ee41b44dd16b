// SPDX-License-Identifier: MIT
// XBoard's view of the variants: built in (xiangqi) or defined by the engine (janggi) through
// `setup` and `piece` (XBoard's engine-interface document, "setup" and "piece" commands).
#include "cecp_variant.h"

#include <ctype.h>
#include <string.h>

#include "variant.h"

// XBoard's piece types in its own order (the piece-to-char table's): a table of SLOTS letters
// per side gives the first SLOTS - 1 types their letters and the king the last one.
enum {
    SLOTS = 22,
    SLOT_KNIGHT = 1,
    SLOT_ROOK = 3,
    SLOT_FERZ = 5,
    SLOT_ALFIL = 6,
    SLOT_MAN = 10,
    SLOT_CANNON = 11,
    SLOT_KING = SLOTS - 1
};

// A variant XBoard lacks: the slot each kind takes (its parent, xiangqi, confines the king and
// ferz slots to the palace, as janggi does) and its moves in Betza's notation, a superset where
// Betza cannot say it: the palace diagonals of general, guard, chariot, cannon and soldier are
// written as diagonals anywhere (within the palace for general and guard), the elephant's leap
// without its blocking points. So XBoard accepts every legal move; the engine refuses the rest.
typedef struct EngineDefined {
    const char *name;
    int slot[KIND_NB];
    const char *betza[KIND_NB];
} EngineDefined;

// clang-format off
static const EngineDefined DEFINED[] = {
    {"janggi",
     {[GENERAL] = SLOT_KING, [GUARD] = SLOT_FERZ, [CHARIOT] = SLOT_ROOK, [CANNON] = SLOT_CANNON,
      [HORSE] = SLOT_KNIGHT, [ELEPHANT] = SLOT_ALFIL, [SOLDIER] = SLOT_MAN},
     {[GENERAL] = "K", [GUARD] = "K", [CHARIOT] = "RB", [CANNON] = "pRpB", [HORSE] = "nN",
      [ELEPHANT] = "Z", [SOLDIER] = "fsWfF"}},
};
// clang-format on

static const EngineDefined *defined_for(const Variant *v) {
    for (size_t i = 0; i < sizeof DEFINED / sizeof DEFINED[0]; i++)
        if (strcmp(DEFINED[i].name, v->name) == 0)
            return &DEFINED[i];
    return NULL;
}

bool cecp_variant_piece_table(const Variant *v, char *out, size_t cap) {
    const EngineDefined *d = defined_for(v);
    if (!d || cap < 2 * SLOTS + 3)
        return false;
    char half[SLOTS];
    memset(half, '.', sizeof half);
    for (int k = GENERAL; k < KIND_NB; k++)
        half[d->slot[k]] = v->letters[k];
    size_t n = 0;
    out[n++] = '(';
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < SLOTS; i++)
            out[n++] =
                side == 0 || half[i] == '.' ? half[i] : (char)tolower((unsigned char)half[i]);
    out[n++] = ')';
    out[n] = '\0';
    return true;
}

void cecp_variant_setup(const Variant *v, FILE *out) {
    const EngineDefined *d = defined_for(v);
    char table[2 * SLOTS + 3];
    if (!d || !cecp_variant_piece_table(v, table, sizeof table))
        return;
    // 9 files x 10 ranks, no holdings, on xiangqi's rules (palaces, no promotion).
    fprintf(out, "setup %s %dx%d+0_xiangqi %s\n", table, FILE_NB, RANK_NB, v->start_fen);
    for (int k = GENERAL; k < KIND_NB; k++)
        fprintf(out, "piece %c& %s\n", v->letters[k], d->betza[k]);
}
