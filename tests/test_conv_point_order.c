/* The padding order of output points (gemm_conv_padding_order), of one
 * image or of a run of images: a permutation of the points, kept only when
 * its tiles read fewer taps than the natural order's by 2% or more, close
 * to the exact count on the layers it is for, and NULL where nothing lies
 * in the padding or there are more than 64 taps. Each tile's cost is
 * counted here independently: points times the taps any point of the tile
 * reads inside the source. The convolutions that run in this order are
 * checked against the reference by the gemm:s8 and gemm:f32 benchdnn
 * batches (inputs/conv/test_conv_gemm_s8, "taps"; test_conv_gemm_f32,
 * "order_images"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu/conv/gemm_conv_f32.h"

typedef struct {
    tsr_dim_t od, oh, ow, kd, kh, kw, stride, pad, dil;
} geometry_t;

static gemm_conv_conf_t make_conf(const geometry_t *g) {
    gemm_conv_conf_t cf;
    memset(&cf, 0, sizeof(cf));
    conv_sizes_t *s = &cf.sh;
    s->OD = g->od;
    s->OH = g->oh;
    s->OW = g->ow;
    s->KD = g->kd;
    s->KH = g->kh;
    s->KW = g->kw;
    s->KSD = g->od > 1 ? g->stride : 1;
    s->KSH = s->KSW = g->stride;
    s->KDD = g->od > 1 ? g->dil : 0;
    s->KDH = s->KDW = g->dil;
    s->padF = g->od > 1 ? g->pad : 0;
    s->padT = s->padL = g->pad;
    cf.DD = 1 + s->KDD;
    cf.DH = 1 + s->KDH;
    cf.DW = 1 + s->KDW;
    /* The source the output shape implies with `pad` on both sides. */
    s->ID = (g->od - 1) * s->KSD + (g->kd - 1) * cf.DD + 1 - 2 * s->padF;
    s->IH = (g->oh - 1) * s->KSH + (g->kh - 1) * cf.DH + 1 - 2 * s->padT;
    s->IW = (g->ow - 1) * s->KSW + (g->kw - 1) * cf.DW + 1 - 2 * s->padL;
    cf.SP = g->od * g->oh * g->ow;
    cf.KS = g->kd * g->kh * g->kw;
    return cf;
}

/* 1 when point sp reads tap (kd, kh, kw) inside the source. */
static int reads(const gemm_conv_conf_t *cf, tsr_dim_t sp, tsr_dim_t kd,
                 tsr_dim_t kh, tsr_dim_t kw) {
    const conv_sizes_t *s = &cf->sh;
    const tsr_dim_t ow = sp % s->OW, oh = sp / s->OW % s->OH,
                    od = sp / (s->OW * s->OH);
    const tsr_dim_t id = od * s->KSD - s->padF + kd * cf->DD;
    const tsr_dim_t ih = oh * s->KSH - s->padT + kh * cf->DH;
    const tsr_dim_t iw = ow * s->KSW - s->padL + kw * cf->DW;
    return id >= 0 && id < s->ID && ih >= 0 && ih < s->IH && iw >= 0 &&
           iw < s->IW;
}

/* Points times taps read, over tiles of mr points of `order` (NULL:
 * natural) over `rows` rows (whole images); with mr = 1, the exact count. */
static int64_t tiles_cost(const gemm_conv_conf_t *cf, const int32_t *order,
                          tsr_dim_t rows, int mr) {
    int64_t cost = 0;
    for (tsr_dim_t t = 0; t < rows; t += mr) {
        const tsr_dim_t end = t + mr < rows ? t + mr : rows;
        int64_t taps = 0;
        for (tsr_dim_t kd = 0; kd < cf->sh.KD; kd++)
            for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
                for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++) {
                    int any = 0;
                    for (tsr_dim_t i = t; i < end && !any; i++)
                        any = reads(cf, (order ? order[i] : i) % cf->SP, kd, kh,
                                    kw);
                    taps += any;
                }
        cost += (end - t) * taps;
    }
    return cost;
}

static int is_permutation(const int32_t *order, tsr_dim_t n) {
    char *seen = calloc((size_t)n, 1);
    int ok = 1;
    for (tsr_dim_t i = 0; i < n && ok; i++) {
        ok = order[i] >= 0 && order[i] < n && !seen[order[i]];
        if (ok)
            seen[order[i]] = 1;
    }
    free(seen);
    return ok;
}

/* expect: 1 an order, 0 none, -1 either. max_over_exact: the largest
 * allowed cost over the exact one (0: not checked), for an order of the
 * points of `images` images. */
static void check_images(const char *name, geometry_t g, int mr,
                         tsr_dim_t images, int expect, double max_over_exact) {
    const gemm_conv_conf_t cf = make_conf(&g);
    int32_t *order = gemm_conv_padding_order(&cf, mr, images);
    int ok = expect < 0 || (order != NULL) == expect;
    double over = 0;
    if (order) {
        const tsr_dim_t rows = images * cf.SP;
        const int64_t natural = tiles_cost(&cf, NULL, rows, mr);
        const int64_t cost = tiles_cost(&cf, order, rows, mr);
        const int64_t exact = tiles_cost(&cf, NULL, rows, 1);
        over = (double)cost / (double)exact;
        ok = ok && is_permutation(order, rows) && cost * 100 <= natural * 98 &&
             (max_over_exact == 0 || over <= max_over_exact);
    }
    if (!CHECK(ok))
        printf("  %s: order %s, cost over exact %.3f\n", name,
               order ? "kept" : "none", over);
    free(order);
}

static void check_geometry(const char *name, geometry_t g, int expect,
                           double max_over_exact) {
    check_images(name, g, 6, 1, expect, max_over_exact);
}

int main(void) {
    /* od oh ow kd kh kw stride pad dil */
    check_geometry("14x14 3x3", (geometry_t){1, 14, 14, 1, 3, 3, 1, 1, 0}, 1,
                   1.02);
    check_geometry("7x7 3x3", (geometry_t){1, 7, 7, 1, 3, 3, 1, 1, 0}, 1, 1.07);
    check_geometry("13x13 3x3", (geometry_t){1, 13, 13, 1, 3, 3, 1, 1, 0}, 1,
                   1.02);
    check_geometry("28x28 3x3", (geometry_t){1, 28, 28, 1, 3, 3, 1, 1, 0}, 1,
                   1.01);
    check_geometry("27x27 5x5", (geometry_t){1, 27, 27, 1, 5, 5, 1, 2, 0}, 1,
                   1.03);
    /* 1.2% of the products saved: below the 2% the store costs. */
    check_geometry("56x56 3x3", (geometry_t){1, 56, 56, 1, 3, 3, 1, 1, 0}, 0,
                   0);
    check_geometry("no padding", (geometry_t){1, 12, 12, 1, 3, 3, 1, 0, 0}, 0,
                   0);
    check_geometry("1x1", (geometry_t){1, 9, 9, 1, 1, 1, 1, 0, 0}, 0, 0);
    check_geometry("81 taps", (geometry_t){1, 10, 10, 1, 9, 9, 1, 4, 0}, 0, 0);
    check_geometry("strided", (geometry_t){1, 9, 11, 1, 3, 3, 2, 1, 0}, -1, 0);
    check_geometry("dilated", (geometry_t){1, 8, 8, 1, 3, 3, 1, 2, 1}, -1, 0);
    check_geometry("3d", (geometry_t){4, 5, 5, 3, 3, 3, 1, 1, 0}, -1, 0);
    /* Tiles of 12 (the AVX-512 kernel's) over several images: one 7x7
     * image has 5 points per edge, 16 have enough to fill whole tiles; in
     * 8 14x14 images the tiles need not start with an image. */
    check_images("7x7 3x3, 1 image", (geometry_t){1, 7, 7, 1, 3, 3, 1, 1, 0},
                 12, 1, -1, 1.25);
    check_images("7x7 3x3, 16 images", (geometry_t){1, 7, 7, 1, 3, 3, 1, 1, 0},
                 12, 16, 1, 1.02);
    check_images("14x14 3x3, 8 images",
                 (geometry_t){1, 14, 14, 1, 3, 3, 1, 1, 0}, 12, 8, 1, 1.02);
    check_images("13x13 3x3, 6 images",
                 (geometry_t){1, 13, 13, 1, 3, 3, 1, 1, 0}, 12, 6, 1, 1.02);
    check_images("27x27 5x5, 2 images",
                 (geometry_t){1, 27, 27, 1, 5, 5, 1, 2, 0}, 12, 2, 1, 1.03);
    check_images("no padding, 4 images",
                 (geometry_t){1, 12, 12, 1, 3, 3, 1, 0, 0}, 12, 4, 0, 0);
    return check_failures() != 0;
}
