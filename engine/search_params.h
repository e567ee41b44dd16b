// SPDX-License-Identifier: MIT
// The search's tunable constants (search_params.def): the SearchParams a Searcher carries, their
// defaults, ranges and SPSA steps, and setting one by name (the UCI options, scripts/spsa).
#pragma once

#include <stdbool.h>

#include "status.h"
#include "variant.h"

/// One value per line of search_params.def, in its order and units.
typedef struct SearchParams {
#define SEARCH_PARAM(name, def, lo, hi, c_end, r_end, doc) int name;
#include "search_params.def"
#undef SEARCH_PARAM
} SearchParams;

/// What search_params.def says of one parameter.
typedef struct SearchParamInfo {
    const char *name; // the field and UCI option name
    int def, min, max;
    double c_end, r_end; // SPSA step sizes at the end of a run (OpenBench's inputs)
    const char *doc;
} SearchParamInfo;

/// The defaults of search_params.def: what the engine searches with unless told otherwise.
extern const SearchParams SEARCH_PARAMS_DEFAULT;

/// The number of parameters.
int search_params_count(void);

/// The i-th parameter's description, 0 <= i < search_params_count().
const SearchParamInfo *search_param_info(int i);

/// The index of the parameter called name (case-insensitive, as UCI option names), or -1.
int search_param_find(const char *name);

/// The value of parameter i in p.
int search_params_get(const SearchParams *p, int i);

/// The share (%) of the classical evaluation in a net's that p asks for in variant v: p's
/// eval_blend, or the variant's own (Variant.eval_blend) where it is -1 (its default). Inline:
/// the search reads it at every net evaluation.
static inline int search_params_eval_blend(const SearchParams *p, const Variant *v) {
    return p->eval_blend >= 0 ? p->eval_blend : v->eval_blend;
}

/// Sets parameter i of p from the decimal text value. STATUS_SYNTAX when value is not an
/// integer, STATUS_RANGE when it lies outside the parameter's min..max; p is unchanged then and
/// err names the parameter, the text and the range.
Status search_params_set(SearchParams *p, int i, const char *value, ErrorInfo *err);
