/* Packing of int8 GEMM operands into the micro-kernels' panel layouts
 * (gemm_s8_impl.h). Full panels and full K groups take a branch-free path
 * the compiler vectorizes; edges go through the checked one. */
#include <string.h>

#include "common/utils.h"
#include "cpu/gemm/gemm_s8_impl.h"

/* Value (x, p) of the source as an int. */
static inline int32_t src_at(const void *src, int src_u8, int64_t off) {
    return src_u8 ? (int32_t)((const uint8_t *)src)[off]
                  : (int32_t)((const int8_t *)src)[off];
}

/* Writes one packed value: s16 pairs widen; quads keep B as s8 and turn A
 * into u8, shifting s8 sources by +128. */
static inline void put(tsr_gemm_s8_layout_t layout, int shift_a, void *dst,
                       int64_t i, int32_t v) {
    if (layout == tsr_gemm_s8_layout_s16_pairs)
        ((int16_t *)dst)[i] = (int16_t)v;
    else if (shift_a)
        ((uint8_t *)dst)[i] = (uint8_t)(v + 128);
    else
        ((uint8_t *)dst)[i] = (uint8_t)v; /* u8 A, or s8 B bits as is */
}

/* One group of kgroup K values for `width` lines whose source is fully in
 * range: the common case, kept free of bounds checks. */
static void pack_full_group(tsr_gemm_s8_layout_t layout, int shift_a,
                            int src_u8, const void *src, int64_t stride_x,
                            int64_t stride_p, int width, int g, void *dst,
                            int64_t out0) {
    if (layout == tsr_gemm_s8_layout_s16_pairs) {
        int16_t *d = (int16_t *)dst + out0;
        if (src_u8) {
            const uint8_t *s = src;
            for (int x = 0; x < width; ++x)
                for (int t = 0; t < 2; ++t)
                    d[x * 2 + t] = s[x * stride_x + t * stride_p];
        } else {
            const int8_t *s = src;
            for (int x = 0; x < width; ++x)
                for (int t = 0; t < 2; ++t)
                    d[x * 2 + t] = s[x * stride_x + t * stride_p];
        }
        return;
    }
    uint8_t *d = (uint8_t *)dst + out0;
    const uint8_t *s = src; /* bytes; the shift maps s8 to u8 */
    const uint8_t flip = shift_a ? 0x80 : 0;
    for (int x = 0; x < width; ++x)
        for (int t = 0; t < g; ++t)
            d[x * g + t] = (uint8_t)(s[x * stride_x + t * stride_p] ^ flip);
}

void tsr_gemm_s8_pack(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                      const void *src, int64_t stride_x, int64_t stride_p,
                      int64_t lines, int64_t depth, int width, void *dst) {
    const int g = tsr_gemm_s8_kgroup(layout);
    const int shift_a =
            is_a && !src_u8 && layout != tsr_gemm_s8_layout_s16_pairs;
    const int esz = tsr_gemm_s8_elem_bytes(layout);
    const int64_t ngroups = tsr_div_up(depth, g);
    const int64_t panel = ngroups * g * width; /* values per panel */
    const char *bytes = src;
    for (int64_t x0 = 0, q = 0; x0 < lines; x0 += width, ++q) {
        const int64_t xn = TSR_MIN(width, lines - x0);
        for (int64_t gi = 0; gi < ngroups; ++gi) {
            const int64_t p0 = gi * g;
            const int64_t out0 = q * panel + gi * g * width;
            if (xn == width && p0 + g <= depth) {
                pack_full_group(layout, shift_a, src_u8,
                                bytes + x0 * stride_x + p0 * stride_p, stride_x,
                                stride_p, width, g, dst, out0);
                continue;
            }
            /* Edge: out-of-range values are zero (products with B's zero
             * padding, or rows/columns nobody stores). */
            memset((char *)dst + out0 * esz, 0, (size_t)(g * width * esz));
            for (int64_t x = 0; x < xn; ++x)
                for (int t = 0; t < g && p0 + t < depth; ++t)
                    put(layout, shift_a, dst, out0 + x * g + t,
                        src_at(src, src_u8,
                               (x0 + x) * stride_x + (p0 + t) * stride_p));
        }
    }
}
