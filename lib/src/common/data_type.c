/* Data type names, sizes and element conversions. The per-element bodies
 * live inline in data_type.h so kernels can use them in their loops; the
 * functions here are their out-of-line entry points plus strided bulk
 * loops whose switch on the type sits outside the loop. */
#include <float.h>
#include <stdatomic.h>
#include <string.h>

#include "data_type.h"
#include "isa.h"

size_t tsr_data_type_size(tsr_data_type_t dt) {
    switch (dt) {
    case tsr_f32:
    case tsr_s32:
        return 4;
    case tsr_bf16:
    case tsr_f16:
        return 2;
    case tsr_s8:
    case tsr_u8:
        return 1;
    default:
        return 0;
    }
}

static const struct {
    tsr_data_type_t dt;
    const char *name;
} data_type_names[] = {
        {tsr_f32, "f32"}, {tsr_bf16, "bf16"}, {tsr_f16, "f16"},
        {tsr_s32, "s32"}, {tsr_s8, "s8"},     {tsr_u8, "u8"},
};

const char *tsr_data_type2str(tsr_data_type_t dt) {
    for (size_t i = 0; i < sizeof(data_type_names) / sizeof(*data_type_names);
         i++)
        if (data_type_names[i].dt == dt)
            return data_type_names[i].name;
    return "undef";
}

tsr_data_type_t tsr_str2data_type(const char *name) {
    if (!name)
        return tsr_data_type_undef;
    for (size_t i = 0; i < sizeof(data_type_names) / sizeof(*data_type_names);
         i++)
        if (strcmp(data_type_names[i].name, name) == 0)
            return data_type_names[i].dt;
    return tsr_data_type_undef;
}

uint16_t tsr_f32_to_bf16(float f) {
    return tsr_f32_to_bf16_inline(f);
}

float tsr_bf16_to_f32(uint16_t b) {
    return tsr_bf16_to_f32_inline(b);
}

uint16_t tsr_f32_to_f16(float f) {
    return tsr_f32_to_f16_inline(f);
}

float tsr_f16_to_f32(uint16_t h) {
    return tsr_f16_to_f32_inline(h);
}

float tsr_load_f32(tsr_data_type_t dt, const void *base, int64_t idx) {
    return tsr_load_f32_inline(dt, base, idx);
}

void tsr_store_f32(tsr_data_type_t dt, void *base, int64_t idx, float v,
                   tsr_round_mode_t mode) {
    tsr_store_f32_inline(dt, base, idx, v, mode);
}

float tsr_dt_min_f32(tsr_data_type_t dt) {
    switch (dt) {
    case tsr_s32:
        return -2147483648.f;
    case tsr_s8:
        return -128.f;
    case tsr_u8:
        return 0.f;
    case tsr_f16:
        return -65504.f;
    case tsr_bf16:
        return -0x1.fep127f;
    default:
        return -FLT_MAX;
    }
}

float tsr_dt_max_f32(tsr_data_type_t dt) {
    switch (dt) {
    case tsr_s32:
        return TSR_S32_MAX_F32;
    case tsr_s8:
        return 127.f;
    case tsr_u8:
        return 255.f;
    case tsr_f16:
        return 65504.f;
    case tsr_bf16:
        return 0x1.fep127f;
    default:
        return FLT_MAX;
    }
}

float tsr_saturate_round(tsr_data_type_t dt, float v, tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_f32:
        return v;
    case tsr_bf16:
        return tsr_bf16_to_f32_inline(tsr_f32_to_bf16_inline(v));
    case tsr_f16:
        return tsr_f16_to_f32_inline(tsr_f32_to_f16_inline(v));
    case tsr_s32:
    case tsr_s8:
    case tsr_u8:
        return tsr_int_saturate_round(v, tsr_dt_min_f32(dt), tsr_dt_max_f32(dt),
                                      mode);
    default:
        return v;
    }
}

/* The switch is hoisted by hand so that each loop is a plain typed loop the
 * compiler can vectorize when the strides are 1. */
/* Rows this long and longer go to the AVX2 kernels when the ISA allows;
 * shorter ones are not worth the call. */
enum { CVT_AVX2_MIN = 8 };

/* Whether the AVX2 kernels may run: asked once, the ISA cap being frozen
 * from then on anyway. */
static int cvt_use_avx2(void) {
    static atomic_int use = -1;
    int known = atomic_load_explicit(&use, memory_order_relaxed);
    if (known < 0) {
        known = tsr_mayiuse(tsr_cpu_isa_avx2);
        atomic_store_explicit(&use, known, memory_order_relaxed);
    }
    return known;
}

void tsr_cvt_to_f32_strided(tsr_data_type_t dt, const void *src,
                            int64_t src_stride, float *dst, int64_t dst_stride,
                            int64_t n) {
    if (src_stride == 1 && dst_stride == 1 && n >= CVT_AVX2_MIN &&
        dt != tsr_f32 && cvt_use_avx2()) {
        tsr_cvt_to_f32_2d_avx2(dt, src, n, dst, n, 1, n);
        return;
    }
    switch (dt) {
    case tsr_f32:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = ((const float *)src)[i * src_stride];
        break;
    case tsr_bf16:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = tsr_bf16_to_f32_inline(
                    ((const uint16_t *)src)[i * src_stride]);
        break;
    case tsr_f16:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = tsr_f16_to_f32_inline(
                    ((const uint16_t *)src)[i * src_stride]);
        break;
    case tsr_s32:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (float)((const int32_t *)src)[i * src_stride];
        break;
    case tsr_s8:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (float)((const int8_t *)src)[i * src_stride];
        break;
    case tsr_u8:
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (float)((const uint8_t *)src)[i * src_stride];
        break;
    default:
        break;
    }
}

/* Integer destinations: one loop per round mode; the s8 / u8 loops with
 * nearest rounding are select chains the compiler vectorizes. */
static void cvt_f32_to_s32(const float *src, int64_t src_stride, int32_t *dst,
                           int64_t dst_stride, int64_t n,
                           tsr_round_mode_t mode) {
    const float lo = -2147483648.f, hi = TSR_S32_MAX_F32;
    for (int64_t i = 0; i < n; i++)
        dst[i * dst_stride] = (int32_t)tsr_int_saturate_round(
                src[i * src_stride], lo, hi, mode);
}

static void cvt_f32_to_s8(const float *src, int64_t src_stride, int8_t *dst,
                          int64_t dst_stride, int64_t n,
                          tsr_round_mode_t mode) {
    if (mode == tsr_round_down)
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (int8_t)tsr_int_clamp(
                    tsr_round_down_f32(src[i * src_stride]), -128.f, 127.f);
    else
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (int8_t)tsr_int_clamp(
                    tsr_round_nearest_even_small(src[i * src_stride]), -128.f,
                    127.f);
}

static void cvt_f32_to_u8(const float *src, int64_t src_stride, uint8_t *dst,
                          int64_t dst_stride, int64_t n,
                          tsr_round_mode_t mode) {
    if (mode == tsr_round_down)
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (uint8_t)tsr_int_clamp(
                    tsr_round_down_f32(src[i * src_stride]), 0.f, 255.f);
    else
        for (int64_t i = 0; i < n; i++)
            dst[i * dst_stride] = (uint8_t)tsr_int_clamp(
                    tsr_round_nearest_even_small(src[i * src_stride]), 0.f,
                    255.f);
}

void tsr_cvt_from_f32_strided(tsr_data_type_t dt, const float *src,
                              int64_t src_stride, void *dst, int64_t dst_stride,
                              int64_t n, tsr_round_mode_t mode) {
    if (src_stride == 1 && dst_stride == 1 && n >= CVT_AVX2_MIN &&
        dt != tsr_f32 && cvt_use_avx2()) {
        tsr_cvt_from_f32_2d_avx2(dt, src, n, dst, n, 1, n, mode);
        return;
    }
    switch (dt) {
    case tsr_f32:
        for (int64_t i = 0; i < n; i++)
            ((float *)dst)[i * dst_stride] = src[i * src_stride];
        break;
    case tsr_bf16:
        for (int64_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i * dst_stride] =
                    tsr_f32_to_bf16_inline(src[i * src_stride]);
        break;
    case tsr_f16:
        for (int64_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i * dst_stride] =
                    tsr_f32_to_f16_inline(src[i * src_stride]);
        break;
    case tsr_s32:
        cvt_f32_to_s32(src, src_stride, dst, dst_stride, n, mode);
        break;
    case tsr_s8:
        cvt_f32_to_s8(src, src_stride, dst, dst_stride, n, mode);
        break;
    case tsr_u8:
        cvt_f32_to_u8(src, src_stride, dst, dst_stride, n, mode);
        break;
    default:
        break;
    }
}

void tsr_cvt_to_f32_2d(tsr_data_type_t dt, const void *src, int64_t src_ld,
                       float *dst, int64_t dst_ld, int64_t rows, int64_t cols) {
    if (cols >= CVT_AVX2_MIN && dt != tsr_f32 && cvt_use_avx2()) {
        tsr_cvt_to_f32_2d_avx2(dt, src, src_ld, dst, dst_ld, rows, cols);
        return;
    }
    const size_t esize = tsr_data_type_size(dt);
    for (int64_t r = 0; r < rows; r++)
        tsr_cvt_to_f32_strided(dt,
                               (const char *)src + r * src_ld * (int64_t)esize,
                               1, dst + r * dst_ld, 1, cols);
}

void tsr_cvt_from_f32_2d(tsr_data_type_t dt, const float *src, int64_t src_ld,
                         void *dst, int64_t dst_ld, int64_t rows, int64_t cols,
                         tsr_round_mode_t mode) {
    if (cols >= CVT_AVX2_MIN && dt != tsr_f32 && cvt_use_avx2()) {
        tsr_cvt_from_f32_2d_avx2(dt, src, src_ld, dst, dst_ld, rows, cols,
                                 mode);
        return;
    }
    const size_t esize = tsr_data_type_size(dt);
    for (int64_t r = 0; r < rows; r++)
        tsr_cvt_from_f32_strided(dt, src + r * src_ld, 1,
                                 (char *)dst + r * dst_ld * (int64_t)esize, 1,
                                 cols, mode);
}
