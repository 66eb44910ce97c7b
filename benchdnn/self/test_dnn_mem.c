/* The harness' element conversions (rounding, saturation, 16-bit floats)
 * and the f32 <-> library memory conversion through a blocked layout. */
#include "self_util.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <string.h>

#include "common/dnn_mem.h"

static void test_integer_rounding(void) {
    CHECK(bench_round_to_dt(tsr_s8, 2.5f, tsr_round_nearest) == 2);
    CHECK(bench_round_to_dt(tsr_s8, 3.5f, tsr_round_nearest) == 4);
    CHECK(bench_round_to_dt(tsr_s8, -2.5f, tsr_round_nearest) == -2);
    CHECK(bench_round_to_dt(tsr_s8, 2.7f, tsr_round_down) == 2);
    CHECK(bench_round_to_dt(tsr_s8, -2.2f, tsr_round_down) == -3);
    CHECK(bench_round_to_dt(tsr_s8, 200, tsr_round_nearest) == 127);
    CHECK(bench_round_to_dt(tsr_s8, -200, tsr_round_nearest) == -128);
    CHECK(bench_round_to_dt(tsr_u8, -3, tsr_round_nearest) == 0);
    CHECK(bench_round_to_dt(tsr_u8, 255.4f, tsr_round_nearest) == 255);
    CHECK(bench_round_to_dt(tsr_u8, 1e9f, tsr_round_nearest) == 255);
    CHECK(bench_round_to_dt(tsr_u8, NAN, tsr_round_nearest) == 0);
    CHECK(bench_round_to_dt(tsr_s32, 3e9f, tsr_round_nearest) == 2147483520.f);
    CHECK(bench_round_to_dt(tsr_s32, -3e9f, tsr_round_nearest) ==
          -2147483648.f);
    CHECK(bench_round_to_dt(tsr_f32, 0.1f, tsr_round_nearest) == 0.1f);
}

static void test_bf16(void) {
    CHECK(bench_f32_to_bf16(1.0f) == 0x3f80);
    /* 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7: ties to even. */
    CHECK(bench_bf16_to_f32(bench_f32_to_bf16(1.0f + 0x1p-8f)) == 1.0f);
    CHECK(bench_bf16_to_f32(bench_f32_to_bf16(1.0f + 3 * 0x1p-8f)) ==
          1.0f + 0x1p-6f);
    CHECK(bench_round_to_dt(tsr_bf16, 1.0f + 0x1p-7f, tsr_round_nearest) ==
          1.0f + 0x1p-7f);
    CHECK(isinf(bench_round_to_dt(tsr_bf16, FLT_MAX, tsr_round_nearest)));
    CHECK(isnan(bench_round_to_dt(tsr_bf16, NAN, tsr_round_nearest)));
    CHECK(bench_round_to_dt(tsr_bf16, -3, tsr_round_nearest) == -3);
}

static void test_f16(void) {
    CHECK(bench_f32_to_f16(1.0f) == 0x3c00);
    CHECK(bench_f32_to_f16(-2.0f) == 0xc000);
    CHECK(bench_f32_to_f16(65504.f) == 0x7bff);
    /* 1 + 2^-11 ties to 1 (even); 1 + 3 * 2^-11 ties up to 1 + 2^-9. */
    CHECK(bench_f16_to_f32(bench_f32_to_f16(1.0f + 0x1p-11f)) == 1.0f);
    CHECK(bench_f16_to_f32(bench_f32_to_f16(1.0f + 3 * 0x1p-11f)) ==
          1.0f + 0x1p-9f);
    CHECK(bench_f32_to_f16(65520.f) == 0x7c00); /* rounds to infinity */
    CHECK(bench_f32_to_f16(-1e6f) == 0xfc00);
    CHECK(bench_f32_to_f16(0x1p-24f) == 0x0001); /* smallest subnormal */
    CHECK(bench_f32_to_f16(0x1p-25f) == 0x0000); /* tie to even: zero */
    CHECK(bench_f32_to_f16(0x1.8p-25f) == 0x0001);
    CHECK(bench_f16_to_f32(0x0001) == 0x1p-24f);
    CHECK(bench_f16_to_f32(0x03ff) == 1023 * 0x1p-24f);
    CHECK(bench_f32_to_f16(0x1.ffcp-15f) == 0x0400); /* up to the normals */
    CHECK(isnan(bench_f16_to_f32(bench_f32_to_f16(NAN))));
    CHECK(isinf(bench_f16_to_f32(0x7c00)));
    /* Every f16 value converts to f32 and back unchanged. */
    int mismatches = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        const float f = bench_f16_to_f32((uint16_t)h);
        if (!isnan(f) && bench_f32_to_f16(f) != h)
            mismatches++;
    }
    CHECK(mismatches == 0);
}

/* Logical values through a blocked s8 memory and back. */
static void test_memory_round_trip(void) {
    const tsr_dim_t dims[4] = {2, 19, 3, 5}; /* 19: a partial block */
    const int64_t n = 2 * 19 * 3 * 5;
    tsr_memory_desc_t md;
    if (!CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_s8, "aBcd8b") ==
               tsr_success))
        return;
    dnn_mem_t m;
    if (!CHECK(dnn_mem_create(&m, &md) == tsr_success))
        return;
    float *src = malloc(n * sizeof(float));
    float *back = malloc(n * sizeof(float));
    for (int64_t i = 0; i < n; i++)
        src[i] = (float)(i % 300) - 150; /* saturates beyond s8 */
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        dnn_mem_from_f32(&m, src);
        dnn_mem_to_f32(&m, back);
        int wrong = 0;
        for (int64_t i = 0; i < n; i++)
            wrong += back[i] !=
                     bench_round_to_dt(tsr_s8, src[i], tsr_round_nearest);
        CHECK(wrong == 0);
    }
    /* Point (0, 9, 0, 0) sits in the second channel block of image 0, at
     * inner position 1: offset 1 * (3 * 5 * 8) + 1. */
    const int8_t *raw = m.data;
    CHECK(raw[1 * 3 * 5 * 8 + 1] == (int8_t)src[9 * 3 * 5]);
    /* The blocked tail (channels 19..23) stays zero. */
    int dirty = 0;
    for (int c = 19; c < 24; c++)
        dirty += raw[2 * 3 * 5 * 8 + (c - 16)] != 0;
    CHECK(dirty == 0);
    free(src);
    free(back);
    dnn_mem_free(&m);
    CHECK(m.mem == NULL && m.data == NULL);
    bench_engine_release();
}

int main(void) {
    test_integer_rounding();
    test_bf16();
    test_f16();
    test_memory_round_trip();
    return check_failures() != 0;
}
