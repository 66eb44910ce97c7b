/* Data types: names and sizes, bf16 / f16 conversions (ties to even, NaN,
 * infinities, subnormals, every 16-bit pattern round-tripped), integer
 * saturation and both rounding modes, and the bulk converters agreeing with
 * the element-wise ones. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "tessera.h"

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static void test_names_and_sizes(void) {
    const tsr_data_type_t dts[] = {tsr_f32, tsr_bf16, tsr_f16,
                                   tsr_s32, tsr_s8,   tsr_u8};
    const size_t sizes[] = {4, 2, 2, 4, 1, 1};
    const char *names[] = {"f32", "bf16", "f16", "s32", "s8", "u8"};
    for (int i = 0; i < 6; i++) {
        CHECK(tsr_data_type_size(dts[i]) == sizes[i]);
        CHECK(strcmp(tsr_data_type2str(dts[i]), names[i]) == 0);
        CHECK(tsr_str2data_type(names[i]) == dts[i]);
    }
    CHECK(tsr_data_type_size(tsr_data_type_undef) == 0);
    CHECK(strcmp(tsr_data_type2str(tsr_data_type_undef), "undef") == 0);
    CHECK(strcmp(tsr_data_type2str((tsr_data_type_t)77), "undef") == 0);
    CHECK(tsr_str2data_type(NULL) == tsr_data_type_undef);
    CHECK(tsr_str2data_type("f64") == tsr_data_type_undef);
    CHECK(tsr_str2data_type("F32") == tsr_data_type_undef);
}

static void test_bf16(void) {
    CHECK(tsr_f32_to_bf16(1.f) == 0x3f80);
    CHECK(tsr_f32_to_bf16(-2.f) == 0xc000);
    CHECK(tsr_f32_to_bf16(-0.f) == 0x8000);
    /* Exactly halfway: ties go to the even mantissa. */
    CHECK(tsr_f32_to_bf16(from_bits(0x3f808000)) == 0x3f80);
    CHECK(tsr_f32_to_bf16(from_bits(0x3f818000)) == 0x3f82);
    CHECK(tsr_f32_to_bf16(from_bits(0x3f808001)) == 0x3f81);
    CHECK(tsr_f32_to_bf16(from_bits(0x3f807fff)) == 0x3f80);
    CHECK(tsr_f32_to_bf16(INFINITY) == 0x7f80);
    CHECK(tsr_f32_to_bf16(-INFINITY) == 0xff80);
    CHECK(tsr_f32_to_bf16(FLT_MAX) == 0x7f80); /* rounds up to infinity */
    /* NaN stays NaN, also when rounding would carry it to infinity. */
    CHECK(isnan(tsr_bf16_to_f32(tsr_f32_to_bf16(NAN))));
    CHECK(isnan(tsr_bf16_to_f32(tsr_f32_to_bf16(from_bits(0x7f800001)))));
    CHECK(isnan(tsr_bf16_to_f32(tsr_f32_to_bf16(from_bits(0xffffffff)))));
    CHECK(tsr_bf16_to_f32(0x3f80) == 1.f);
    CHECK(tsr_bf16_to_f32(0x0001) == from_bits(0x00010000));
    int bad = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        const float f = tsr_bf16_to_f32((uint16_t)b);
        if (isnan(f))
            bad += !isnan(tsr_bf16_to_f32(tsr_f32_to_bf16(f)));
        else
            bad += tsr_f32_to_bf16(f) != b;
    }
    CHECK(bad == 0);
}

static void test_f16(void) {
    CHECK(tsr_f32_to_f16(1.f) == 0x3c00);
    CHECK(tsr_f32_to_f16(-2.f) == 0xc000);
    CHECK(tsr_f32_to_f16(-0.f) == 0x8000);
    CHECK(tsr_f32_to_f16(65504.f) == 0x7bff);
    CHECK(tsr_f32_to_f16(65519.f) == 0x7bff);
    CHECK(tsr_f32_to_f16(65520.f) == 0x7c00); /* halfway to 2^16: even */
    CHECK(tsr_f32_to_f16(1e6f) == 0x7c00);
    CHECK(tsr_f32_to_f16(-1e6f) == 0xfc00);
    CHECK(tsr_f32_to_f16(INFINITY) == 0x7c00);
    /* Ties to even between 1 and 1 + 2^-10, and 1 + 2^-10 and 1 + 2^-9. */
    CHECK(tsr_f32_to_f16(1.f + 0x1p-11f) == 0x3c00);
    CHECK(tsr_f32_to_f16(1.f + 3 * 0x1p-11f) == 0x3c02);
    CHECK(tsr_f32_to_f16(1.f + 0x1p-11f + 0x1p-20f) == 0x3c01);
    /* Subnormals: 2^-24 is the smallest; ties to even there too. */
    CHECK(tsr_f32_to_f16(0x1p-24f) == 0x0001);
    CHECK(tsr_f32_to_f16(0x1p-25f) == 0x0000);
    CHECK(tsr_f32_to_f16(3 * 0x1p-25f) == 0x0002);
    CHECK(tsr_f32_to_f16(-0x1p-24f) == 0x8001);
    CHECK(tsr_f32_to_f16(0x1p-14f) == 0x0400);
    CHECK(tsr_f32_to_f16(0x1p-14f - 0x1p-25f) == 0x0400); /* tie: even up */
    CHECK(tsr_f32_to_f16(1e-10f) == 0x0000);
    CHECK(isnan(tsr_f16_to_f32(tsr_f32_to_f16(NAN))));
    CHECK(isnan(tsr_f16_to_f32(tsr_f32_to_f16(from_bits(0x7f800001)))));
    CHECK(tsr_f16_to_f32(0x0001) == 0x1p-24f);
    CHECK(tsr_f16_to_f32(0x7bff) == 65504.f);
    CHECK(tsr_f16_to_f32(0xfc00) == -INFINITY);
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        const float f = tsr_f16_to_f32((uint16_t)h);
        if (isnan(f))
            bad += !isnan(tsr_f16_to_f32(tsr_f32_to_f16(f)));
        else
            bad += tsr_f32_to_f16(f) != h;
    }
    CHECK(bad == 0);
}

static float store_load(tsr_data_type_t dt, float v, tsr_round_mode_t mode) {
    unsigned char buf[8];
    memset(buf, 0, sizeof(buf));
    tsr_store_f32(dt, buf, 1, v, mode);
    return tsr_load_f32(dt, buf, 1);
}

static void test_integers(void) {
    const tsr_round_mode_t nearest = tsr_round_nearest, down = tsr_round_down;
    CHECK(store_load(tsr_s8, 200.f, nearest) == 127.f);
    CHECK(store_load(tsr_s8, -200.f, nearest) == -128.f);
    CHECK(store_load(tsr_s8, -128.4f, nearest) == -128.f);
    CHECK(store_load(tsr_u8, -5.f, nearest) == 0.f);
    CHECK(store_load(tsr_u8, 300.f, nearest) == 255.f);
    CHECK(store_load(tsr_u8, 254.5f, nearest) == 254.f);
    CHECK(store_load(tsr_u8, 255.5f, down) == 255.f);
    CHECK(store_load(tsr_s32, 3e9f, nearest) == 2147483520.f);
    CHECK(store_load(tsr_s32, -3e9f, nearest) == -2147483648.f);
    CHECK(store_load(tsr_s32, INFINITY, nearest) == 2147483520.f);
    CHECK(store_load(tsr_s8, -INFINITY, nearest) == -128.f);
    CHECK(store_load(tsr_s32, NAN, nearest) == 0.f);
    CHECK(store_load(tsr_s8, NAN, down) == 0.f);
    CHECK(store_load(tsr_u8, NAN, nearest) == 0.f);
    int32_t big = 0;
    tsr_store_f32(tsr_s32, &big, 0, 16777217.f, nearest);
    CHECK(big == 16777216);

    /* Round to nearest even, and round down, on ties and off them. */
    const float in[] = {0.5f,  1.5f, 2.5f,       -0.5f,     -1.5f,
                        -2.5f, 1.2f, -1.2f,      1.7f,      -1.7f,
                        3.f,   -3.f, 8388607.5f, 4194304.5f};
    const float nearest_expected[] = {0.f,  2.f,  2.f,       0.f,      -2.f,
                                      -2.f, 1.f,  -1.f,      2.f,      -2.f,
                                      3.f,  -3.f, 8388608.f, 4194304.f};
    const float down_expected[] = {0.f,  1.f,  2.f,       -1.f,     -2.f,
                                   -3.f, 1.f,  -2.f,      1.f,      -2.f,
                                   3.f,  -3.f, 8388607.f, 4194304.f};
    for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
        int32_t v = 0;
        tsr_store_f32(tsr_s32, &v, 0, in[i], nearest);
        if (!CHECK(v == (int32_t)nearest_expected[i]))
            fprintf(stderr, "  nearest(%g) gave %d\n", in[i], (int)v);
        tsr_store_f32(tsr_s32, &v, 0, in[i], down);
        if (!CHECK(v == (int32_t)down_expected[i]))
            fprintf(stderr, "  down(%g) gave %d\n", in[i], (int)v);
        CHECK(tsr_saturate_round(tsr_s32, in[i], nearest) ==
              nearest_expected[i]);
        CHECK(tsr_saturate_round(tsr_s32, in[i], down) == down_expected[i]);
    }
    CHECK(tsr_saturate_round(tsr_s8, -1000.f, nearest) == -128.f);
    CHECK(tsr_saturate_round(tsr_u8, 77.5f, nearest) == 78.f);
    CHECK(tsr_saturate_round(tsr_u8, 77.5f, down) == 77.f);
    /* Floating types ignore the round mode. */
    CHECK(tsr_saturate_round(tsr_f32, 1.5f, down) == 1.5f);
    CHECK(tsr_saturate_round(tsr_bf16, from_bits(0x3f808001), down) ==
          from_bits(0x3f810000));
    CHECK(tsr_saturate_round(tsr_f16, 70000.f, nearest) == INFINITY);
    CHECK(tsr_dt_min_f32(tsr_s8) == -128.f && tsr_dt_max_f32(tsr_s8) == 127.f);
    CHECK(tsr_dt_min_f32(tsr_u8) == 0.f && tsr_dt_max_f32(tsr_u8) == 255.f);
    CHECK(tsr_dt_max_f32(tsr_s32) == 2147483520.f);
    CHECK((double)tsr_dt_max_f32(tsr_s32) < 2147483648.0);
}

/* The bulk loops give exactly what the element functions give. */
static void test_bulk_conversions(void) {
    enum { COUNT = 1000 };
    static float values[COUNT], back[2 * COUNT], expected[COUNT];
    static unsigned char raw[8 * COUNT], raw_expected[8 * COUNT];
    uint32_t seed = 12345;
    for (int i = 0; i < COUNT; i++) {
        seed = seed * 1664525u + 1013904223u;
        values[i] = ((float)(seed >> 8) / (float)(1 << 24) - 0.5f) * 600.f;
    }
    /* Special values, and magnitudes around 2^22 / 2^23 / 2^31 where the
     * fast rounding forms change regime. */
    const float special[] = {
            NAN,          INFINITY,      -INFINITY,  -0.f,        0.5f,
            -0.5f,        127.5f,        -128.5f,    255.5f,      4194304.5f,
            -4194304.5f,  4194303.5f,    8388607.5f, -8388607.5f, 8388609.f,
            12582912.f,   -12582913.f,   16777217.f, 3e9f,        -3e9f,
            2147483520.f, -2147483648.f, 1e30f,      -1e30f,      0x1p-30f,
            -0x1p-30f};
    for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++)
        values[i] = special[i];
    const tsr_data_type_t dts[] = {tsr_f32, tsr_bf16, tsr_f16,
                                   tsr_s32, tsr_s8,   tsr_u8};
    for (int t = 0; t < 6; t++)
        for (int mode = 0; mode < 2; mode++)
            for (int stride = 1; stride <= 2; stride++) {
                const tsr_data_type_t dt = dts[t];
                tsr_cvt_from_f32_strided(dt, values, 1, raw, stride, COUNT,
                                         (tsr_round_mode_t)mode);
                memset(raw_expected, 0, sizeof(raw_expected));
                for (int i = 0; i < COUNT; i++)
                    tsr_store_f32(dt, raw_expected, (int64_t)i * stride,
                                  values[i], (tsr_round_mode_t)mode);
                int bad = 0;
                const size_t esize = tsr_data_type_size(dt);
                for (int i = 0; i < COUNT; i++)
                    bad += memcmp(raw + (size_t)i * stride * esize,
                                  raw_expected + (size_t)i * stride * esize,
                                  esize) != 0;
                tsr_cvt_to_f32_strided(dt, raw, stride, back, 2, COUNT);
                for (int i = 0; i < COUNT; i++) {
                    expected[i] = tsr_load_f32(dt, raw, (int64_t)i * stride);
                    bad += memcmp(&back[2 * i], &expected[i], sizeof(float)) !=
                           0;
                }
                if (!CHECK(bad == 0))
                    fprintf(stderr, "  dt %s mode %d stride %d\n",
                            tsr_data_type2str(dt), mode, stride);
            }
}

/* Every 16-bit pattern through the bulk and the element conversions, and
 * f32 bit patterns around the special values back to 16 bits. */
static void test_bulk_all_patterns(void) {
    static uint16_t halves[0x10000], back[0x10000], expected_back[0x10000];
    static float wide[0x10000], probe[0x10000];
    for (uint32_t h = 0; h < 0x10000; h++)
        halves[h] = (uint16_t)h;
    const tsr_data_type_t dts[] = {tsr_f16, tsr_bf16};
    for (int t = 0; t < 2; t++) {
        tsr_cvt_to_f32_strided(dts[t], halves, 1, wide, 1, 0x10000);
        int bad = 0;
        for (uint32_t h = 0; h < 0x10000; h++) {
            const float e = tsr_load_f32(dts[t], halves, h);
            bad += memcmp(&wide[h], &e, sizeof(e)) != 0;
        }
        /* f32 patterns: the upper 16 bits walk all values, the lower ones
         * pick ties, near-ties and NaN payloads. */
        const uint32_t low[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
        for (size_t k = 0; k < sizeof(low) / sizeof(*low); k++) {
            for (uint32_t h = 0; h < 0x10000; h++)
                probe[h] = from_bits((h << 16) | low[k]);
            tsr_cvt_from_f32_strided(dts[t], probe, 1, back, 1, 0x10000,
                                     tsr_round_nearest);
            for (uint32_t h = 0; h < 0x10000; h++)
                tsr_store_f32(dts[t], expected_back, h, probe[h],
                              tsr_round_nearest);
            bad += memcmp(back, expected_back, sizeof(back)) != 0;
        }
        if (!CHECK(bad == 0))
            fprintf(stderr, "  %s: %d mismatches\n", tsr_data_type2str(dts[t]),
                    bad);
    }
}

/* The 2-D forms over rows with gaps agree with the element functions and
 * leave the gaps alone. */
static void test_bulk_2d(void) {
    enum { ROWS = 3, MAX_COLS = 40, LD = 45 };
    static float values[ROWS * LD], back[ROWS * LD];
    static unsigned char raw[8 * ROWS * LD], expected[8 * ROWS * LD];
    for (int i = 0; i < ROWS * LD; i++)
        values[i] = (float)((i * 37) % 701 - 350) * 0.75f;
    const tsr_data_type_t dts[] = {tsr_f32, tsr_bf16, tsr_f16,
                                   tsr_s32, tsr_s8,   tsr_u8};
    const int64_t widths[] = {1, 5, 8, 13, 16, MAX_COLS};
    for (int t = 0; t < 6; t++)
        for (size_t w = 0; w < sizeof(widths) / sizeof(*widths); w++)
            for (int mode = 0; mode < 2; mode++) {
                const tsr_data_type_t dt = dts[t];
                const int64_t cols = widths[w];
                const size_t esize = tsr_data_type_size(dt);
                memset(raw, 0x5c, sizeof(raw));
                memset(expected, 0x5c, sizeof(expected));
                tsr_cvt_from_f32_2d(dt, values, LD, raw, LD, ROWS, cols,
                                    (tsr_round_mode_t)mode);
                for (int r = 0; r < ROWS; r++)
                    for (int64_t c = 0; c < cols; c++)
                        tsr_store_f32(dt, expected, r * LD + c,
                                      values[r * LD + c],
                                      (tsr_round_mode_t)mode);
                int bad = memcmp(raw, expected, esize * ROWS * LD) != 0;
                for (int i = 0; i < ROWS * LD; i++)
                    back[i] = -1.f;
                tsr_cvt_to_f32_2d(dt, raw, LD, back, LD, ROWS, cols);
                for (int r = 0; r < ROWS; r++)
                    for (int64_t c = 0; c < LD; c++) {
                        const float e =
                                c < cols ? tsr_load_f32(dt, raw, r * LD + c)
                                         : -1.f;
                        bad += memcmp(&back[r * LD + c], &e, sizeof(e)) != 0;
                    }
                if (!CHECK(bad == 0))
                    fprintf(stderr, "  2d %s cols %lld mode %d\n",
                            tsr_data_type2str(dt), (long long)cols, mode);
            }
}

int main(void) {
    test_names_and_sizes();
    test_bf16();
    test_f16();
    test_integers();
    test_bulk_conversions();
    test_bulk_all_patterns();
    test_bulk_2d();
    return check_failures() != 0;
}
