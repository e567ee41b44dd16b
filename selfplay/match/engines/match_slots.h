// SPDX-License-Identifier: MIT
// Game slots shared by the matches of a tournament: at most `count` games at once over all its
// pairings, handed out first come, first served, so the pairings advance side by side.
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

enum { MATCH_SLOTS_MAX = 64 }; // the most games at once (--concurrency's bound)

typedef struct MatchSlots {
    pthread_mutex_t lock;
    pthread_cond_t turn;
    int count;        // games at once
    long next_ticket; // the ticket the next taker gets
    long given_back;  // slots given back so far: ticket t may play once t < given_back + count
    bool used[MATCH_SLOTS_MAX]; // which slot numbers are taken (a slot's cores: --affinity)
} MatchSlots;

/// Sets up count slots (1 <= count <= MATCH_SLOTS_MAX).
void match_slots_init(MatchSlots *s, int count);

/// Frees what match_slots_init set up. Accepts NULL.
void match_slots_destroy(MatchSlots *s);

/// Waits for a slot, in the order of asking, and puts its number (0..count-1, none taken by
/// another game) in *slot. False (and no slot) when *stop is set while waiting (stop may be
/// NULL): the whole tournament is stopping then.
bool match_slots_take(MatchSlots *s, atomic_bool *stop, int *slot);

/// Gives slot number slot back.
void match_slots_give(MatchSlots *s, int slot);
