// SPDX-License-Identifier: MIT
// Xiangqi's perpetual chase, judged by replaying the repetition cycle on a copy of the board.
//
// The rules page forbids chasing one same unprotected piece through a repetition. Made precise
// here, for a move M of side S in the cycle (the position after M is judged, S not to move):
// - Attack. S attacks an enemy piece P on point p with its piece X when X taking on p would be
//   a legal move of S if S were to move: X reaches p by its rule (a cannon over exactly one
//   screen of any kind), and the capture leaves S's general neither attacked nor facing the
//   other general. A pinned X attacks nothing. Every kind attacks by its moves: the general
//   (inside its palace), advisor and elephant (on their own side), horse, chariot, cannon, and
//   the soldier, across the river or not.
// - Attacks of M. An attack counts for M when X is the piece M moved, or when X could not
//   reach p by its rule before M: M uncovered it (opened X's line, gave a cannon its screen or
//   took away its second one, freed a horse's or an elephant's leg). Attacks that X had by its
//   rule before M do not count, even if they were not legal then: M's leaving a check or
//   ending a pin of X does not make X chase (else a side escaping a perpetual check would be
//   chasing each piece its check had frozen).
// - Unprotected. P is chased by M when it is not the general and some attack X of M could take
//   it without a recapture: after X takes on p, P's owner has no legal capture on p (its
//   recapturing piece pinned, its general unable to step onto an attacked point or onto the
//   facing file, or nothing reaching p). Protection is judged against that capture, so a piece
//   guarded only by a piece that may not legally retake is unprotected.
// - Checks. A move that gives check chases like any other move: only if it also chases P.
//   The general is never chased (an attack on it is a check: the perpetual-check rule).
// - Same piece. Pieces are followed through the cycle: a piece keeps its identity when it
//   moves (no piece is captured inside a cycle). S chases when one identity is chased by every
//   move of S in the cycle. Both sides may chase; what that decides is rules_end_reason()'s.
#include "chase.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "board.h"
#include "movegen.h"

enum { ID_NB = SQUARE_NB + 1 }; // identities 1..90 (the point a piece stood on at the start)

static bool list_has(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

// True when, after capture c of the side to move, the other side may legally take back on c's
// point.
static bool recapture_exists(Board *w, Move c) {
    MoveList replies;
    bool found = false;
    board_make(w, c);
    movegen_captures(w, &replies);
    for (int i = 0; i < replies.count && !found; i++)
        found = move_to(replies.moves[i]) == move_to(c);
    board_unmake(w);
    return found;
}

// Marks in chased[] the identities that the move just made on w (by the side not to move now)
// chases; before holds that side's captures by the pieces' rules (pseudo-legal) before the move.
static void mark_chased(Board *w, const MoveList *before, const uint8_t id[SQUARE_NB],
                        bool chased[ID_NB]) {
    // A null move gives the side that played the move again, so that the legal captures
    // are its own, judged by the same legality test as a real move.
    const Square g = w->general[w->side];
    MoveList after;
    board_make(w, move_make(g, g));
    movegen_captures(w, &after);
    for (int i = 0; i < after.count; i++) {
        Move c = after.moves[i];
        Square to = move_to(c);
        if (piece_kind(w->squares[to]) == GENERAL || chased[id[to]])
            continue;
        if (list_has(before, c))
            continue; // an attack that stood before the move (never the moved piece's: it stands on
                      // a new point, so its captures are new moves)
        if (!recapture_exists(w, c))
            chased[id[to]] = true;
    }
    board_unmake(w);
}

void chase_in_cycle(const Board *b, int first, bool chases[SIDE_NB]) {
    const int cur = b->nstates - 1, len = cur - first;
    assert(first >= 0 && len > 0);
    // The copy holds the cycle's states only; unmade back to the first occurrence.
    Board w;
    memcpy(&w, b, offsetof(Board, states));
    memcpy(w.states, &b->states[first], sizeof(StateInfo) * (size_t)(len + 1));
    w.nstates = len + 1;
    while (w.nstates > 1)
        board_unmake(&w);

    uint8_t id[SQUARE_NB];
    bool candidate[SIDE_NB][ID_NB];
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        id[sq] = w.squares[sq] != EMPTY ? (uint8_t)(sq + 1) : 0;
    int moves[SIDE_NB] = {0, 0};
    memset(candidate, true, sizeof candidate);
    for (int j = 1; j <= len; j++) {
        const Move m = b->states[first + j].move;
        const Side mover = w.side;
        if (move_is_pass(m)) {
            // No pass in xiangqi's games; the search's null move (a tempo, search_tree.c) may lie
            // in a cycle of its tree: it attacks nothing, so its side chases nothing.
            board_make(&w, m);
            memset(candidate[mover], false, sizeof candidate[mover]);
            moves[mover]++;
            continue;
        }
        assert(w.squares[move_to(m)] == EMPTY);
        MoveList before;
        bool chased[ID_NB] = {false};
        movegen_pseudo(&w, &before, GEN_CAPTURES);
        board_make(&w, m);
        id[move_to(m)] = id[move_from(m)];
        id[move_from(m)] = 0;
        mark_chased(&w, &before, id, chased);
        for (int k = 0; k < ID_NB; k++)
            candidate[mover][k] = candidate[mover][k] && chased[k];
        moves[mover]++;
    }
    for (int s = 0; s < SIDE_NB; s++) {
        chases[s] = false;
        if (moves[s] == 0)
            continue;
        for (int k = 1; k < ID_NB; k++)
            chases[s] = chases[s] || candidate[s][k];
    }
}
