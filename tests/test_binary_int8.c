/* Binary with int8 sources (every pair of u8 and s8) into u8, s8 and f32:
 * every implementation that accepts a problem must write, bit for bit,
 *   dst = saturate(round(alg(scale0 * src0, scale1 * src1[broadcast])))
 * (nearest even, or down; NaN gives 0) as this test computes it. Rows of
 * lengths around the vector and group sizes, per-row broadcast, scales,
 * dst buffers not aligned to a vector, and a dst beyond the caches (the
 * non-temporal stores) starting off a line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binary_test_util.h"
#include "check.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

static float load(tsr_data_type_t dt, const void *p, int64_t i) {
    switch (dt) {
    case tsr_s8:
        return (float)((const int8_t *)p)[i];
    case tsr_u8:
        return (float)((const uint8_t *)p)[i];
    default:
        return ((const float *)p)[i];
    }
}

static float saturate(float v, float lo, float hi, int down) {
    if (v != v)
        return 0.f;
    v = down ? floorf(v) : nearbyintf(v);
    return v < lo ? lo : v > hi ? hi : v;
}

static void store(tsr_data_type_t dt, void *p, int64_t i, float v, int down) {
    switch (dt) {
    case tsr_s8:
        ((int8_t *)p)[i] = (int8_t)saturate(v, -128.f, 127.f, down);
        break;
    case tsr_u8:
        ((uint8_t *)p)[i] = (uint8_t)saturate(v, 0.f, 255.f, down);
        break;
    default:
        ((float *)p)[i] = v;
        break;
    }
}

/* Values over the whole range of the type (zeros included, for the
 * divisions by 0), in an order no vector width repeats. */
static void fill(tsr_data_type_t dt, void *p, int64_t n, int which) {
    for (int64_t i = 0; i < n; i++) {
        const int v = (int)((i * 37 + which * 101 + (i >> 7)) % 256);
        if (dt == tsr_s8)
            ((int8_t *)p)[i] = (int8_t)(v - 128);
        else
            ((uint8_t *)p)[i] = (uint8_t)v;
    }
}

typedef struct {
    float scale0, scale1; /* 0: not set */
    int round_down;
} extras_t;

/* dims {rows, cols}; src1 {rows, cols} or {rows, 1}; dst `shift`
 * elements past an allocation (off the vector alignment, never off the
 * element's). Returns the implementations run. */
static int test_case(tsr_alg_kind_t alg, tsr_data_type_t dt0,
                     tsr_data_type_t dt1, tsr_data_type_t dtd, tsr_dim_t rows,
                     tsr_dim_t cols, int per_row, size_t shift,
                     const extras_t *ex) {
    const size_t misalign = shift * (dtd == tsr_f32 ? sizeof(float) : 1);
    const tsr_dim_t dims[2] = {rows, cols},
                    dims1[2] = {rows, per_row ? 1 : cols};
    tsr_memory_desc_t md0, md1, mdd;
    tsr_memory_desc_init_by_tag(&md0, 2, dims, dt0, "ab");
    tsr_memory_desc_init_by_tag(&md1, 2, dims1, dt1, "ab");
    tsr_memory_desc_init_by_tag(&mdd, 2, dims, dtd, "ab");
    tsr_binary_desc_t desc;
    if (!CHECK(tsr_binary_desc_init(&desc, alg, &md0, &md1, &mdd) ==
               tsr_success))
        return 0;
    tsr_primitive_attr_t attr = NULL;
    tsr_primitive_attr_create(&attr);
    if (ex->scale0 != 0.f)
        tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC_0, 0);
    if (ex->scale1 != 0.f)
        tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC_1, 0);
    if (ex->round_down)
        tsr_primitive_attr_set_round_mode(attr, tsr_round_down);
    tsr_primitive_desc_t pd = NULL;
    const tsr_status_t st = tsr_primitive_desc_create(&pd, &desc, attr, engine);
    tsr_primitive_attr_destroy(attr);
    if (!CHECK(st == tsr_success))
        return 0;

    const int64_t n = rows * cols, n1 = per_row ? rows : n;
    const size_t esd = dtd == tsr_f32 ? sizeof(float) : 1;
    const size_t dst_size = (size_t)n * esd;
    unsigned char *src0 = malloc((size_t)n), *src1 = malloc((size_t)n1);
    unsigned char *buf = malloc(dst_size + misalign + 1);
    unsigned char *expect = malloc(dst_size);
    fill(dt0, src0, n, 0);
    fill(dt1, src1, n1, 1);
    const float s0 = ex->scale0 != 0.f ? ex->scale0 : 1.f;
    const float s1 = ex->scale1 != 0.f ? ex->scale1 : 1.f;
    for (int64_t i = 0; i < n; i++) {
        const float b = load(dt1, src1, per_row ? i / cols : i);
        store(dtd, expect, i, naive_alg(alg, s0 * load(dt0, src0, i), s1 * b),
              ex->round_down);
    }
    tsr_memory_t m0 = NULL, m1 = NULL, md = NULL, ms0 = NULL, ms1 = NULL;
    tsr_memory_create(&m0, &md0, engine, src0);
    tsr_memory_create(&m1, &md1, engine, src1);
    tsr_memory_create(&md, &mdd, engine, buf + misalign);
    const tsr_dim_t one = 1;
    tsr_memory_desc_t scale_md;
    tsr_memory_desc_init_by_strides(&scale_md, 1, &one, tsr_f32, NULL);
    tsr_memory_create(&ms0, &scale_md, engine, (void *)&s0);
    tsr_memory_create(&ms1, &scale_md, engine, (void *)&s1);

    int runs = 0;
    do {
        memset(buf, 0x5a, dst_size + misalign + 1);
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[5] = {{TSR_ARG_SRC_0, m0},
                                  {TSR_ARG_SRC_1, m1},
                                  {TSR_ARG_DST, md},
                                  {TSR_ARG_ATTR_SCALES | TSR_ARG_SRC_0, ms0},
                                  {TSR_ARG_ATTR_SCALES | TSR_ARG_SRC_1, ms1}};
        const int nargs =
                3 + (ex->scale0 != 0.f ? 1 : 0) + (ex->scale1 != 0.f ? 1 : 0);
        if (ex->scale0 == 0.f)
            args[3] = args[4];
        CHECK(tsr_primitive_execute(prim, stream, nargs, args) == tsr_success);
        tsr_primitive_destroy(prim);
        const int outside_kept = buf[misalign + dst_size] == 0x5a &&
                                 (misalign == 0 || buf[misalign - 1] == 0x5a);
        if (!CHECK(memcmp(buf + misalign, expect, dst_size) == 0 &&
                   outside_kept)) {
            size_t i = 0;
            while (i < dst_size && buf[misalign + i] == expect[i])
                i++;
            fprintf(stderr,
                    "  impl %s alg %s dt %s:%s:%s %lldx%lld%s misalign %zu: "
                    "first difference at byte %zu of %zu\n",
                    tsr_primitive_desc_impl_name(pd), tsr_alg_kind2str(alg),
                    tsr_data_type2str(dt0), tsr_data_type2str(dt1),
                    tsr_data_type2str(dtd), (long long)rows, (long long)cols,
                    per_row ? " per row" : "", misalign, i, dst_size);
        }
        runs++;
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);

    tsr_memory_destroy(m0);
    tsr_memory_destroy(m1);
    tsr_memory_destroy(md);
    tsr_memory_destroy(ms0);
    tsr_memory_destroy(ms1);
    tsr_primitive_desc_destroy(pd);
    free(src0);
    free(src1);
    free(buf);
    free(expect);
    return runs;
}

static const tsr_data_type_t int8_dts[] = {tsr_u8, tsr_s8};
static const tsr_data_type_t dst_dts[] = {tsr_u8, tsr_s8, tsr_f32};

/* Every pair, dst type and algorithm; rows shorter than one vector, of
 * whole groups and with tails; full and per-row src1. */
static void test_pairs(void) {
    static const tsr_dim_t cols[] = {5, 64, 77, 200};
    for (int i0 = 0; i0 < 2; i0++)
        for (int i1 = 0; i1 < 2; i1++)
            for (int d = 0; d < 3; d++)
                for (int a = 0; a < N_ALGS; a++)
                    for (int c = 0; c < 4; c++)
                        CHECK(test_case(all_algs[a], int8_dts[i0], int8_dts[i1],
                                        dst_dts[d], 3, cols[c], (a + c) % 2,
                                        (size_t)c,
                                        &(extras_t){0.f, 0.f, 0}) > 1);
}

/* Scales with fractions (rounding) and large values (saturation), both
 * round modes. */
static void test_scales(void) {
    static const extras_t cases[] = {
            {0.75f, 1.5f, 0}, {0.5f, 0.25f, 1}, {3.f, 0.f, 0}, {0.f, -2.5f, 1}};
    static const tsr_alg_kind_t algs[] = {tsr_binary_add, tsr_binary_mul,
                                          tsr_binary_sub, tsr_binary_div};
    for (int e = 0; e < 4; e++)
        for (int i0 = 0; i0 < 2; i0++)
            for (int i1 = 0; i1 < 2; i1++)
                for (int d = 0; d < 3; d++)
                    for (int a = 0; a < 4; a++)
                        CHECK(test_case(algs[a], int8_dts[i0], int8_dts[i1],
                                        dst_dts[d], 2, 131, a % 2, 1,
                                        &cases[e]) > 1);
}

/* A dst beyond the caches, 3 bytes past a line: head, streamed groups
 * and tail; split among the threads. */
static void test_large(void) {
    const tsr_dim_t cols = ((tsr_dim_t)16 << 20) + 13;
    CHECK(test_case(tsr_binary_add, tsr_u8, tsr_s8, tsr_u8, 2, cols, 0, 3,
                    &(extras_t){0.f, 0.f, 0}) > 1);
}

int main(void) {
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    test_pairs();
    test_scales();
    test_large();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
