// SPDX-License-Identifier: MIT
// engine_init(): the single place where start-up tables are built.
#include "engine.h"

#include <pthread.h>

#include "variant.h"
#include "zobrist.h"

static void init_once(void) {
    for (int i = 0; i < variant_count(); i++)
        variant_at(i)->init();
    zobrist_init();
}

void engine_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_once);
}
