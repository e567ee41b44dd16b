// SPDX-License-Identifier: MIT
// The win, draw and loss model of each variant (wdl.h).
#include "wdl.h"

#include <math.h>
#include <string.h>

#include "search.h"
#include "variant.h"

// Janggi: the sigmoid_s of the compiled-in net's provenance (data/nets/janggi-r4.json), the
// scale the trainer fitted to the games' results; janggi is decided by points and has no draws:
// margin 0. Xiangqi: scale and margin fitted together by maximum likelihood (scripts/fit-wdl.py)
// to 12,682 positions of the xiangqi match games in docs/match-report, each searched at 2000
// nodes (docs/strength-limit/wdl-xiangqi-fit.json); the net's scale (544) with its own fitted
// margin (476) fits them worse (log-likelihood -10,632 against -10,530).
static const struct {
    const char *variant;
    WdlModel model;
} MODELS[] = {
    {"janggi", {508.73, 0.0}},
    {"xiangqi", {420.0, 400.3}},
};

WdlModel wdl_model(const Variant *v) {
    for (size_t i = 0; i < sizeof MODELS / sizeof MODELS[0]; i++)
        if (v && strcmp(v->name, MODELS[i].variant) == 0)
            return MODELS[i].model;
    return (WdlModel){400.0, 0.0};
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

void wdl_of_score(const Variant *v, Score score, int wdl[3]) {
    if (score_is_decided(score)) {
        wdl[0] = score > 0 ? 1000 : 0;
        wdl[1] = 0;
        wdl[2] = score > 0 ? 0 : 1000;
        return;
    }
    WdlModel m = wdl_model(v);
    int w = (int)lround(1000 * sigmoid((score - m.margin) / m.scale));
    int l = (int)lround(1000 * sigmoid((-score - m.margin) / m.scale));
    if (m.margin <= 0 || w + l > 1000) // no draws; or a rounding past 1000
        l = 1000 - w;
    wdl[0] = w;
    wdl[2] = l;
    wdl[1] = 1000 - w - l;
}
