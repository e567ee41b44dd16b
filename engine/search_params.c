// SPDX-License-Identifier: MIT
// The search's tunable constants (see search_params.h).
#include "search_params.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <strings.h>

const SearchParams SEARCH_PARAMS_DEFAULT = {
#define SEARCH_PARAM(name, def, lo, hi, c_end, r_end, doc) .name = (def),
#include "search_params.def"
#undef SEARCH_PARAM
};

static const SearchParamInfo INFO[] = {
#define SEARCH_PARAM(name, def, lo, hi, c_end, r_end, doc) {#name, def, lo, hi, c_end, r_end, doc},
#include "search_params.def"
#undef SEARCH_PARAM
};

// Where each parameter sits in the struct, so that one index reaches it for get and set.
static const size_t OFFSET[] = {
#define SEARCH_PARAM(name, def, lo, hi, c_end, r_end, doc) offsetof(SearchParams, name),
#include "search_params.def"
#undef SEARCH_PARAM
};

enum { PARAM_COUNT = (int)(sizeof INFO / sizeof INFO[0]) };

int search_params_count(void) { return PARAM_COUNT; }

const SearchParamInfo *search_param_info(int i) { return &INFO[i]; }

int search_param_find(const char *name) {
    for (int i = 0; i < PARAM_COUNT; i++)
        if (strcasecmp(INFO[i].name, name) == 0)
            return i;
    return -1;
}

int search_params_get(const SearchParams *p, int i) {
    return *(const int *)((const char *)p + OFFSET[i]);
}

Status search_params_set(SearchParams *p, int i, const char *value, ErrorInfo *err) {
    const SearchParamInfo *in = &INFO[i];
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (!*value || *end)
        return error_set(err, STATUS_SYNTAX, "%s value '%.40s' is not an integer", in->name, value);
    if (errno == ERANGE || v < in->min || v > in->max)
        return error_set(err, STATUS_RANGE, "%s value '%.40s' is not %d..%d", in->name, value,
                         in->min, in->max);
    *(int *)((char *)p + OFFSET[i]) = (int)v;
    return STATUS_OK;
}
