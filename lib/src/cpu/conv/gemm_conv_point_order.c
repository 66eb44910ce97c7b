/* The order of an image's output points for a GEMM that reads the source
 * by taps (gemm:f32, gemm:s8): a row tile of the GEMM leaves out a tap
 * only when all its points read that tap in the zero padding, so in the
 * natural order a tile of edge points mixed with interior ones multiplies
 * the padding. Kept together by the taps they read (the interior, each
 * edge, each corner), tiles leave out the padding almost exactly, as a
 * direct convolution does: on a 14x14 3x3 layer 9% of the products are
 * padding and the natural order skips 4 points in 9 of them.
 *
 * Points with the same set of taps form a class. Two orders of the
 * classes are tried: by decreasing tap count, and a chain that starts
 * from the largest class and moves on to the class whose taps add least
 * to the last one's (around an image's border, as corners sit between
 * their edges). The cheaper one by the cost of its tiles (points times
 * the taps any of them reads, in tiles of mr points) is kept, when it
 * beats the natural order by 2% or more: the rows of a tile then lie
 * apart in dst and are stored run by run, which cost 2% at 56x56, where
 * the order saves 1.2% of the products.
 *
 * An image has too few points of a class to fill whole tiles (a 7x7 image
 * has 5 points per edge), so where GEMM rows run on across images the
 * order may span several: each class's points of all of them together.
 * In tiles of 12 rows, a 7x7 3x3 layer's order of one image still
 * multiplies 22% more than the valid products; over 16 images, 1%. */
#include <stdlib.h>

#include "cpu/conv/gemm_conv_f32.h"

static int tap_count(uint64_t mask) {
    return __builtin_popcountll(mask);
}

/* Products of the tiles of mr consecutive rows of `order` (NULL: the
 * natural one) over `rows` rows (whole images of SP points), in points
 * times taps. */
static int64_t order_cost(const uint64_t *taps, const int32_t *order,
                          tsr_dim_t SP, tsr_dim_t rows, int mr) {
    int64_t cost = 0;
    for (tsr_dim_t t = 0; t < rows; t += mr) {
        const tsr_dim_t end = t + mr < rows ? t + mr : rows;
        uint64_t any = 0;
        for (tsr_dim_t i = t; i < end; i++)
            any |= taps[(order ? order[i] : i) % SP];
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

/* Appends the points of class c of each of `images` images to order
 * from `at`, image after image, each in natural order. */
static tsr_dim_t append_class(const int *cls, tsr_dim_t SP, tsr_dim_t images,
                              int c, int32_t *order, tsr_dim_t at) {
    for (tsr_dim_t img = 0; img < images; img++)
        for (tsr_dim_t sp = 0; sp < SP; sp++)
            if (cls[sp] == c)
                order[at++] = (int32_t)(img * SP + sp);
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

static void order_by_taps(const int *cls, tsr_dim_t SP, tsr_dim_t images,
                          point_class_t *classes, int n, int32_t *order) {
    tsr_dim_t at = 0;
    for (int k = 0; k < n; k++) {
        int best = -1;
        for (int c = 0; c < n; c++)
            if (!classes[c].used &&
                (best < 0 ||
                 by_taps_before(&classes[c], c, &classes[best], best)))
                best = c;
        classes[best].used = 1;
        at = append_class(cls, SP, images, best, order, at);
    }
    for (int c = 0; c < n; c++)
        classes[c].used = 0;
}

static void order_by_chain(const int *cls, tsr_dim_t SP, tsr_dim_t images,
                           point_class_t *classes, int n, int32_t *order) {
    int last = 0;
    for (int c = 1; c < n; c++)
        if (classes[c].count > classes[last].count)
            last = c;
    classes[last].used = 1;
    tsr_dim_t at = append_class(cls, SP, images, last, order, 0);
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
        at = append_class(cls, SP, images, best, order, at);
        last = best;
    }
    for (int c = 0; c < n; c++)
        classes[c].used = 0;
}

/* The cheaper order of the classes over `images` images into order (2 *
 * images * SP room), and its cost. */
static int64_t best_order(const uint64_t *taps, const int *cls, tsr_dim_t SP,
                          tsr_dim_t images, point_class_t *classes, int n,
                          int mr, int32_t *order) {
    const tsr_dim_t rows = images * SP;
    order_by_taps(cls, SP, images, classes, n, order);
    order_by_chain(cls, SP, images, classes, n, order + rows);
    const int64_t by_taps = order_cost(taps, order, SP, rows, mr);
    const int64_t chain = order_cost(taps, order + rows, SP, rows, mr);
    if (chain >= by_taps)
        return by_taps;
    for (tsr_dim_t i = 0; i < rows; i++)
        order[i] = order[rows + i];
    return chain;
}

int32_t *gemm_conv_padding_order(const gemm_conv_conf_t *cf, int mr,
                                 tsr_dim_t images) {
    enum { MAX_CLASSES = 256 };
    const tsr_dim_t SP = cf->SP;
    if (cf->KS > 64 || images < 1 || SP > GEMM_CONV_ORDER_MAX_SP ||
        SP > INT32_MAX / images || mr < 1)
        return NULL;
    const tsr_dim_t rows = images * SP;
    uint64_t *taps = malloc(sizeof(*taps) * (size_t)SP);
    int *cls = malloc(sizeof(*cls) * (size_t)SP);
    int32_t *orders = malloc(sizeof(*orders) * 2 * (size_t)rows);
    point_class_t *classes = malloc(sizeof(*classes) * MAX_CLASSES);
    int32_t *kept = NULL;
    if (!taps || !cls || !orders || !classes)
        goto done;
    for (tsr_dim_t sp = 0; sp < SP; sp++)
        taps[sp] = gemm_conv_row_point_taps(cf, NULL, sp);
    const int n = find_classes(taps, SP, cls, classes, MAX_CLASSES);
    if (n < 2)
        goto done;
    const int64_t cost =
            best_order(taps, cls, SP, images, classes, n, mr, orders);
    if (cost * 100 > order_cost(taps, NULL, SP, rows, mr) * 98)
        goto done;
    kept = malloc(sizeof(*kept) * (size_t)rows);
    if (kept)
        for (tsr_dim_t i = 0; i < rows; i++)
            kept[i] = orders[i];
done:
    free(classes);
    free(orders);
    free(cls);
    free(taps);
    return kept;
}
