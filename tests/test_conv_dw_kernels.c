/* The row kernels of "dw:f32" (dw_conv_f32.h) agree bit for bit: the
 * AVX-512 one gives exactly the AVX2 one's output (same taps in the same
 * order, same FMAs, same bias add), and writes nothing else, over channel
 * counts around its 16-channel vectors and 64-channel groups (masked
 * tails), 3-tap rows at stride 1 and 2 and general taps, borders, row
 * segments not starting at 0, 1 to 3 input rows, with and without bias,
 * channels-last and blocked data (which it hands to the AVX2 kernel);
 * and the bands of rows of both kernels on blocked data equal row by
 * row calls (the AVX2 ones also without AVX-512).
 * That the AVX2 kernel is right is the benchdnn batch's part
 * (inputs/conv/test_conv_dw_ci). The kernels' comparison needs a CPU
 * with AVX-512 (else, or with the ISA capped below it, only the AVX2
 * bands are checked). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/isa.h"
#include "cpu/conv/dw_conv_f32.h"

#define SENTINEL 12345.0f

typedef struct {
    tsr_dim_t KW, SW, DW, pad;
} taps_t;

static unsigned rng_state = 12345u;

/* Values in [-1, 1) with full mantissas, so a rounding difference shows. */
static float next_value(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / (float)(1u << 23) - 1.0f;
}

static void fill(float *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = next_value();
}

/* A dst of n floats, all SENTINEL, for a kernel to write. */
static float *sentinel_dst(size_t n) {
    float *dst = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        dst[i] = SENTINEL;
    return dst;
}

/* Runs `row` on `a` into a dst of dst_floats set to SENTINEL first. */
static float *run(dw_row_fn row, dw_row_args_t a, size_t dst_floats) {
    a.dst = sentinel_dst(dst_floats);
    row(&a);
    return a.dst;
}

/* Output points of a row of IW input points. */
static tsr_dim_t out_width(const taps_t *t, tsr_dim_t IW) {
    return (IW + 2 * t->pad - (t->KW - 1) * t->DW - 1) / t->SW + 1;
}

typedef struct {
    float *src, *wei, *bias;
} operands_t;

/* Operands filled with values (src of src_floats, nrows x KW taps of
 * weights wei_sw apart, bias of bias_floats) and a call on them of one
 * output row: nrows input rows row_floats apart, nc channels, rows of IW
 * points. Data strides and the row segment are the caller's to set. */
static dw_row_args_t problem_args(const taps_t *t, int nrows, tsr_dim_t IW,
                                  tsr_dim_t nc, tsr_dim_t src_floats,
                                  tsr_dim_t row_floats, tsr_dim_t wei_sw,
                                  tsr_dim_t bias_floats, int with_bias,
                                  operands_t *op) {
    const size_t wei_floats = (size_t)(nrows * t->KW * wei_sw);
    op->src = malloc((size_t)src_floats * sizeof(float));
    op->wei = malloc(wei_floats * sizeof(float));
    op->bias = malloc((size_t)bias_floats * sizeof(float));
    fill(op->src, (size_t)src_floats);
    fill(op->wei, wei_floats);
    fill(op->bias, (size_t)bias_floats);

    dw_row_args_t a;
    memset(&a, 0, sizeof(a));
    a.nh = 1;
    a.nrows = nrows;
    for (int r = 0; r < nrows; r++) {
        a.src_row[r] = op->src + r * row_floats;
        a.wei_row[r] = op->wei + r * t->KW * wei_sw;
    }
    a.nc = nc;
    a.KW = t->KW;
    a.SW = t->SW;
    a.DW = t->DW;
    a.padL = t->pad;
    a.IW = IW;
    a.wei_sw = wei_sw;
    a.bias = with_bias ? op->bias : NULL;
    return a;
}

static void free_operands(operands_t *op) {
    free(op->src);
    free(op->wei);
    free(op->bias);
}

/* Both kernels on one problem: nc channels, input rows of IW points,
 * output points ow0 .. OW of the row; returns 1 when they agree. */
static int agree(tsr_dim_t nc, const taps_t *t, tsr_dim_t IW, int nrows,
                 tsr_dim_t ow0, int with_bias, int blocked) {
    const tsr_dim_t OW = out_width(t, IW);
    if (OW <= ow0)
        return 1;
    const tsr_dim_t nvec = (nc + DW_VLEN - 1) / DW_VLEN;
    /* Channels-last with a few spare channels a point; blocked: blocks of
     * DW_VLEN channels a row apart. */
    const tsr_dim_t src_sw = blocked ? DW_VLEN : nvec * DW_VLEN + 8;
    const tsr_dim_t src_cv = blocked ? IW * DW_VLEN : DW_VLEN;
    const tsr_dim_t row_floats = blocked ? nvec * IW * DW_VLEN : IW * src_sw;
    operands_t op;
    dw_row_args_t a = problem_args(t, nrows, IW, nc, nrows * row_floats,
                                   row_floats, nc + 3, nc, with_bias, &op);
    a.ow0 = ow0;
    a.now = OW - ow0;
    a.src_sw = src_sw;
    a.src_cv = src_cv;
    a.dst_sw = blocked ? DW_VLEN : nvec * DW_VLEN + 8;
    a.dst_cv = blocked ? a.now * DW_VLEN : DW_VLEN;
    const size_t dst_floats =
            (size_t)(blocked ? nvec * a.now * DW_VLEN : a.now * a.dst_sw);

    float *want = run(dw_conv_row_avx2, a, dst_floats);
    float *got = run(dw_conv_row_avx512, a, dst_floats);
    const int same = memcmp(want, got, dst_floats * sizeof(float)) == 0;
    if (!same)
        fprintf(stderr,
                "differ: nc %ld KW %ld SW %ld DW %ld pad %ld IW %ld rows %d "
                "ow0 %ld bias %d blocked %d\n",
                (long)nc, (long)t->KW, (long)t->SW, (long)t->DW, (long)t->pad,
                (long)IW, nrows, (long)ow0, with_bias, blocked);
    free(want);
    free(got);
    free_operands(&op);
    return same;
}

/* A band of nh output rows in one call of `row` (which walks groups of
 * blocks down the band) equals nh calls of one row each, bit for bit,
 * writing nothing else: data blocked by cblk (8 or 16) channels, nc of
 * them, rows of IW points, 3 kernel rows, row stride SH. */
static int band_agrees(dw_row_fn row, tsr_dim_t cblk, tsr_dim_t nc,
                       const taps_t *t, tsr_dim_t IW, tsr_dim_t SH,
                       tsr_dim_t nh, int with_bias) {
    const int nrows = 3;
    const tsr_dim_t OW = out_width(t, IW);
    const tsr_dim_t blocks = (nc + cblk - 1) / cblk;
    const tsr_dim_t IH = (nh - 1) * SH + nrows;
    const tsr_dim_t src_bs = IH * IW * cblk, dst_bs = nh * OW * cblk;
    const tsr_dim_t wei_sw = blocks * cblk;
    operands_t op;
    dw_row_args_t a = problem_args(t, nrows, IW, nc, blocks * src_bs, IW * cblk,
                                   wei_sw, wei_sw, with_bias, &op);
    a.now = OW;
    /* 16-channel blocks: two vectors a block; 8: one, a block apart. */
    a.src_sw = cblk;
    a.src_cv = cblk == 16 ? DW_VLEN : src_bs;
    a.src_bs = cblk == 16 ? src_bs : 0;
    a.dst_sw = cblk;
    a.dst_cv = cblk == 16 ? DW_VLEN : dst_bs;
    a.dst_bs = cblk == 16 ? dst_bs : 0;
    a.nh = nh;
    a.src_hs = SH * IW * cblk;
    a.dst_hs = OW * cblk;
    const size_t dst_floats = (size_t)(blocks * dst_bs);
    float *got = run(row, a, dst_floats);

    float *want = sentinel_dst(dst_floats);
    dw_row_args_t one = a;
    one.nh = 1;
    for (tsr_dim_t h = 0; h < nh; h++) {
        for (int r = 0; r < nrows; r++)
            one.src_row[r] = a.src_row[r] + h * a.src_hs;
        one.dst = want + h * a.dst_hs;
        row(&one);
    }
    const int same = memcmp(want, got, dst_floats * sizeof(float)) == 0;
    if (!same)
        fprintf(stderr,
                "band differs: cblk %ld nc %ld KW %ld SW %ld IW %ld SH %ld "
                "nh %ld bias %d\n",
                (long)cblk, (long)nc, (long)t->KW, (long)t->SW, (long)IW,
                (long)SH, (long)nh, with_bias);
    free(want);
    free(got);
    free_operands(&op);
    return same;
}

/* Bands of both vector kernels (each where the CPU has it): rows of 7 to
 * 112 points (up to 24 blocks a group, down to one), stride 1 and 2,
 * general taps; the AVX-512 one on 16-channel blocks, the AVX2 one on 8.
 * Adds to *compared and *failed. */
static void check_bands(int *compared, int *failed) {
    static const tsr_dim_t band_channels[] = {16, 24, 48, 136};
    static const tsr_dim_t band_widths[] = {7, 14, 28, 112};
    static const taps_t band_taps[] = {
            {3, 1, 1, 1}, {3, 2, 1, 1}, {5, 1, 1, 2}};
    for (int k = 0; k < 2; k++) {
        const int avx512 = k == 0;
        if (!tsr_mayiuse(avx512 ? tsr_cpu_isa_avx512_core : tsr_cpu_isa_avx2))
            continue;
        for (size_t ci = 0; ci < sizeof(band_channels) / sizeof(tsr_dim_t);
             ci++)
            for (size_t wi = 0; wi < sizeof(band_widths) / sizeof(tsr_dim_t);
                 wi++)
                for (size_t ti = 0; ti < sizeof(band_taps) / sizeof(taps_t);
                     ti++) {
                    if (!band_agrees(avx512 ? dw_conv_row_avx512
                                            : dw_conv_row_avx2,
                                     avx512 ? 16 : 8, band_channels[ci],
                                     &band_taps[ti], band_widths[wi],
                                     band_taps[ti].SW, 4, (int)(wi & 1)))
                        (*failed)++;
                    (*compared)++;
                }
    }
}

int main(void) {
    int compared = 0, failed = 0;
    check_bands(&compared, &failed);
    if (!tsr_mayiuse(tsr_cpu_isa_avx512_core)) {
        CHECK(failed == 0);
        printf("no AVX-512 (or ISA capped below it): %d band problems "
               "compared, %d differ\n",
               compared, failed);
        return check_failures() != 0;
    }
    static const tsr_dim_t channels[] = {1,  7,  8,  9,  15, 16, 17,
                                         24, 33, 48, 63, 64, 65, 136};
    static const taps_t taps[] = {
            {3, 1, 1, 1}, {3, 2, 1, 1}, {3, 1, 1, 0},
            {3, 2, 1, 0}, {3, 1, 1, 3}, /* points whose taps all fall in the
                                           padding */
            {5, 1, 1, 2}, {5, 2, 1, 2}, {3, 1, 2, 2},
            {1, 1, 1, 0}, {3, 3, 1, 1}, {7, 1, 1, 3},
    };
    static const tsr_dim_t widths[] = {3, 4, 5, 7, 9, 14, 17, 28};
    for (size_t ci = 0; ci < sizeof(channels) / sizeof(channels[0]); ci++)
        for (size_t ti = 0; ti < sizeof(taps) / sizeof(taps[0]); ti++)
            for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
                for (int variant = 0; variant < 8; variant++) {
                    const int nrows = variant & 1 ? 3 : 1 + variant % 3;
                    const tsr_dim_t ow0 = variant & 2 ? 1 : 0;
                    const int with_bias = (variant >> 2) & 1;
                    if (!agree(channels[ci], &taps[ti], widths[wi], nrows, ow0,
                               with_bias, 0))
                        failed++;
                    if (variant == 0 &&
                        !agree(channels[ci], &taps[ti], widths[wi], 3, 0, 1, 1))
                        failed++;
                    compared++;
                }
    CHECK(failed == 0);
    printf("%d problems compared, %d differ\n", compared, failed);
    return check_failures() != 0;
}
