// SPDX-License-Identifier: MIT
// Start positions of the 16 formation pairings, as laid out on the rules page.
#include "janggi/formation.h"

#include <string.h>

#include "board.h"
#include "variant.h"

const char *const FORMATION_NAMES[FORMATION_NB] = {"ma-sang-sang-ma", "sang-ma-sang-ma",
                                                   "ma-sang-ma-sang", "sang-ma-ma-sang"};

// The pieces on points b, c, g, h counted from the player's own left.
static const Kind LAYOUT[FORMATION_NB][4] = {
    {HORSE, ELEPHANT, ELEPHANT, HORSE},
    {ELEPHANT, HORSE, ELEPHANT, HORSE},
    {HORSE, ELEPHANT, HORSE, ELEPHANT},
    {ELEPHANT, HORSE, HORSE, ELEPHANT},
};

const char *formation_name(Formation f) {
    return (unsigned)f < FORMATION_NB ? FORMATION_NAMES[f] : "?";
}

Status formation_parse(const char *name, Formation *out, ErrorInfo *err) {
    for (int f = 0; f < FORMATION_NB; f++)
        if (name && strcmp(name, FORMATION_NAMES[f]) == 0) {
            *out = (Formation)f;
            return STATUS_OK;
        }
    return error_set(err, STATUS_SYNTAX,
                     "unknown formation '%.40s' (expected ma-sang-sang-ma, sang-ma-sang-ma, "
                     "ma-sang-ma-sang or sang-ma-ma-sang)",
                     name ? name : "");
}

static void setup_side(Board *b, Side side, Formation f) {
    const int back = side == CHO ? 0 : 9, cannons = side == CHO ? 2 : 7;
    const int soldiers = side == CHO ? 3 : 6, palace_centre = side == CHO ? 1 : 8;
    static const int own_left_files[4] = {1, 2, 6, 7}; // b, c, g, h from Cho's left
    board_put(b, piece_make(side, CHARIOT), square_make(0, back));
    board_put(b, piece_make(side, CHARIOT), square_make(8, back));
    board_put(b, piece_make(side, GUARD), square_make(3, back));
    board_put(b, piece_make(side, GUARD), square_make(5, back));
    board_put(b, piece_make(side, GENERAL), square_make(4, palace_centre));
    board_put(b, piece_make(side, CANNON), square_make(1, cannons));
    board_put(b, piece_make(side, CANNON), square_make(7, cannons));
    for (int file = 0; file < FILE_NB; file += 2)
        board_put(b, piece_make(side, SOLDIER), square_make(file, soldiers));
    for (int i = 0; i < 4; i++) {
        // Han's own left is file i, so its layout is read from the other end.
        int file = side == CHO ? own_left_files[i] : 8 - own_left_files[i];
        board_put(b, piece_make(side, LAYOUT[f][i]), square_make(file, back));
    }
}

void formation_setup(Board *b, Formation cho, Formation han) {
    board_clear_variant(b, &VARIANT_JANGGI);
    setup_side(b, CHO, cho);
    setup_side(b, HAN, han);
    board_finish_setup(b, CHO, 0, 0);
}
