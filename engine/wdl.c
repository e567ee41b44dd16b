// SPDX-License-Identifier: MIT
// The win, draw and loss model of each variant (wdl.h).
#include "wdl.h"

#include <math.h>

#include "search.h"
#include "variant.h"

WdlModel wdl_model(const Variant *v) {
    if (!v || v->wdl_scale <= 0)
        return (WdlModel){400.0, 0.0};
    return (WdlModel){v->wdl_scale, v->wdl_margin};
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
