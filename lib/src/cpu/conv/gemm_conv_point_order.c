/* The order of an image's output points for a GEMM that reads the source
 * by taps (gemm:s8): a row tile of the GEMM leaves out a tap only when all
 * its points read that tap in the zero padding, so in the natural order a
 * tile of edge points mixed with interior ones multiplies the padding.
 * Kept together by the taps they read (the interior, each edge, each
 * corner), tiles leave out the padding almost exactly, as a direct
 * convolution does: on a 14x14 3x3 layer 9% of the products are padding
 * and the natural order skips 4 points in 9 of them.
 *
 * Points with the same set of taps form a class. Two orders of the
 * classes are tried: by decreasing tap count, and a chain that starts
 * from the largest class and moves on to the class whose taps add least
 * to the last one's (around an image's border, as corners sit between
 * their edges). The cheaper one by the cost of its tiles (points times
 * the taps any of them reads, in tiles of mr points) is kept, when it
 * beats the natural order by 2% or more: the rows of a tile then lie
 * apart in dst and are stored run by run, which cost 2% at 56x56, where
 * the order saves 1.2% of the products. */
#include <stdlib.h>

#include "cpu/conv/gemm_conv_f32.h"

/* The taps point sp reads inside the source, as bits (tap index as in
 * the kernel walk kd, kh, kw; KS <= 64). */
static uint64_t point_taps(const gemm_conv_conf_t *cf, tsr_dim_t sp) {
    const gemm_conv_point_t p = gemm_conv_point_of(cf, sp);
    tsr_dim_t id0, ih0, iw0;
    gemm_conv_src_origin(cf, &p, &id0, &ih0, &iw0);
    uint64_t mask = 0;
    int tap = 0;
    for (tsr_dim_t kd = 0; kd < cf->sh.KD; kd++)
        for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
            for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++, tap++)
                if (gemm_conv_src_inside(cf, id0 + kd * cf->DD,
                                         ih0 + kh * cf->DH, iw0 + kw * cf->DW))
                    mask |= (uint64_t)1 << tap;
    return mask;
}

static int tap_count(uint64_t mask) {
    return __builtin_popcountll(mask);
}

/* Products of the tiles of mr consecutive points of `order` (NULL: the
 * natural one), in points times taps. */
static int64_t order_cost(const uint64_t *taps, const int32_t *order,
                          tsr_dim_t SP, int mr) {
    int64_t cost = 0;
    for (tsr_dim_t t = 0; t < SP; t += mr) {
        const tsr_dim_t end = t + mr < SP ? t + mr : SP;
        uint64_t any = 0;
        for (tsr_dim_t i = t; i < end; i++)
            any |= taps[order ? order[i] : i];
        cost += (end - t) * (int64_t)tap_count(any);
    }
    return cost;
}

typedef struct {
    uint64_t taps;
    tsr_dim_t count;
    int used;
} point_class_t;

/* The class of every point (cls[sp]) and the classes; returns their
 * number, or 0 when there are more than max_classes. */
static int find_classes(const uint64_t *taps, tsr_dim_t SP, int *cls,
                        point_class_t *classes, int max_classes) {
    int n = 0;
    for (tsr_dim_t sp = 0; sp < SP; sp++) {
        int c = 0;
        while (c < n && classes[c].taps != taps[sp])
            c++;
        if (c == n) {
            if (n == max_classes)
                return 0;
            classes[n].taps = taps[sp];
            classes[n].count = 0;
            classes[n].used = 0;
            n++;
        }
        classes[c].count++;
        cls[sp] = c;
    }
    return n;
}

/* Appends the points of class c to order from `at`, in natural order. */
static tsr_dim_t append_class(const int *cls, tsr_dim_t SP, int c,
                              int32_t *order, tsr_dim_t at) {
    for (tsr_dim_t sp = 0; sp < SP; sp++)
        if (cls[sp] == c)
            order[at++] = (int32_t)sp;
    return at;
}

/* 1 when class a goes before class b by decreasing tap count (then
 * larger first, then first seen). */
static int by_taps_before(const point_class_t *a, int ia,
                          const point_class_t *b, int ib) {
    if (tap_count(a->taps) != tap_count(b->taps))
        return tap_count(a->taps) > tap_count(b->taps);
    if (a->count != b->count)
        return a->count > b->count;
    return ia < ib;
}

static void order_by_taps(const int *cls, tsr_dim_t SP, point_class_t *classes,
                          int n, int32_t *order) {
    tsr_dim_t at = 0;
    for (int k = 0; k < n; k++) {
        int best = -1;
        for (int c = 0; c < n; c++)
            if (!classes[c].used &&
                (best < 0 ||
                 by_taps_before(&classes[c], c, &classes[best], best)))
                best = c;
        classes[best].used = 1;
        at = append_class(cls, SP, best, order, at);
    }
    for (int c = 0; c < n; c++)
        classes[c].used = 0;
}

static void order_by_chain(const int *cls, tsr_dim_t SP, point_class_t *classes,
                           int n, int32_t *order) {
    int last = 0;
    for (int c = 1; c < n; c++)
        if (classes[c].count > classes[last].count)
            last = c;
    classes[last].used = 1;
    tsr_dim_t at = append_class(cls, SP, last, order, 0);
    for (int k = 1; k < n; k++) {
        int best = -1, best_taps = 0;
        for (int c = 0; c < n; c++) {
            if (classes[c].used)
                continue;
            const int t = tap_count(classes[c].taps | classes[last].taps);
            if (best < 0 || t < best_taps ||
                (t == best_taps && classes[c].count > classes[best].count)) {
                best = c;
                best_taps = t;
            }
        }
        classes[best].used = 1;
        at = append_class(cls, SP, best, order, at);
        last = best;
    }
    for (int c = 0; c < n; c++)
        classes[c].used = 0;
}

int32_t *gemm_conv_padding_order(const gemm_conv_conf_t *cf, int mr) {
    enum { MAX_CLASSES = 256 };
    const tsr_dim_t SP = cf->SP;
    if (cf->KS > 64 || SP > INT32_MAX || mr < 1)
        return NULL;
    uint64_t *taps = malloc(sizeof(*taps) * (size_t)SP);
    int *cls = malloc(sizeof(*cls) * (size_t)SP);
    int32_t *orders = malloc(sizeof(*orders) * 2 * (size_t)SP);
    point_class_t *classes = malloc(sizeof(*classes) * MAX_CLASSES);
    int32_t *kept = NULL;
    if (!taps || !cls || !orders || !classes)
        goto done;
    for (tsr_dim_t sp = 0; sp < SP; sp++)
        taps[sp] = point_taps(cf, sp);
    const int n = find_classes(taps, SP, cls, classes, MAX_CLASSES);
    if (n < 2)
        goto done;
    order_by_taps(cls, SP, classes, n, orders);
    order_by_chain(cls, SP, classes, n, orders + SP);
    const int64_t natural = order_cost(taps, NULL, SP, mr);
    const int64_t by_taps = order_cost(taps, orders, SP, mr);
    const int64_t chain = order_cost(taps, orders + SP, SP, mr);
    const int32_t *best = chain < by_taps ? orders + SP : orders;
    const int64_t best_cost = chain < by_taps ? chain : by_taps;
    if (best_cost * 100 > natural * 98)
        goto done;
    kept = malloc(sizeof(*kept) * (size_t)SP);
    if (kept)
        for (tsr_dim_t sp = 0; sp < SP; sp++)
            kept[sp] = best[sp];
done:
    free(classes);
    free(orders);
    free(cls);
    free(taps);
    return kept;
}
