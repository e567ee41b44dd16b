// SPDX-License-Identifier: MIT
// The table of known variants (variants.def) and the look-ups by index and name (variant.h).
#include "variant.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const Variant *const VARIANTS[] = {
#define VARIANT(SYMBOL, folder) &SYMBOL,
#include "variants.def"
#undef VARIANT
};

int variant_count(void) { return (int)(sizeof VARIANTS / sizeof VARIANTS[0]); }

const Variant *variant_at(int i) { return i >= 0 && i < variant_count() ? VARIANTS[i] : NULL; }

// Any case: a person may write XIANGQI, as UCI's combo values are matched (Stockfish does so),
// and every front end, file and option takes the same names.
const Variant *variant_find(const char *name) {
    for (int i = 0; name && i < variant_count(); i++)
        if (strcasecmp(VARIANTS[i]->name, name) == 0)
            return VARIANTS[i];
    return NULL;
}

char *variant_names(char *buf, size_t cap) {
    size_t at = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < variant_count() && at < cap; i++) {
        int n = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", VARIANTS[i]->name);
        at += n > 0 ? (size_t)n : 0;
    }
    return buf;
}
