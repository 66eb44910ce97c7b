/* The binary row kernel (contract in binary_kernel.h), written once over a
 * small vector API that the including ISA file defines first
 * (binary_kernel_avx512.c, binary_kernel_avx2.c):
 *   vf, VF_LEN                   float vector, lanes
 *   vlanes, vl_of(left)          the first min(left, VF_LEN) lanes (none
 *                                when left <= 0); VL_FULL all of them
 *   vf_set1 vf_zero vf_add vf_sub vf_mul vf_div vf_min vf_max
 *   vf_cmp_one(a, b, pred)       1 where a pred b, else 0
 *   vf_prelu(a, w)               a > 0 ? a : w * a
 *   vi, vi_set1                  int32 vector
 *   vf_load_dt(dt, p, i, lanes, flip)
 *                                elements i.. of type dt as f32, lanes
 *                                outside `lanes` not read; u8 bytes x
 *                                read as (x ^ flip) - flip: flip 0x80
 *                                makes them s8
 *   group_store(dt, p, i, v, left, mode, nt)
 *                                the BK_GROUP values of v[0..3] into
 *                                elements i.. of type dt, the first
 *                                min(left, BK_GROUP) only; nt: whole
 *                                group, non-temporal, BK_ALIGN-aligned
 *   vf_stream_fence              orders the non-temporal stores
 *   vw, vw_set1 vw_add vw_sub vw_mullo vw_min vw_max vw_min_unsigned
 *                                int16 vector of BK_GROUP / 2 lanes
 *   vw_load_bytes(p, i, half, flip)
 *                                half 0 or 1 of the group of bytes at i
 *                                as int16, (x ^ flip) - flip
 *   bytes_store(dt, p, i, lo, hi)
 *                                lo, hi saturated to dt (u8 or s8), the
 *                                group of bytes at i
 * and names the kernel BINARY_KERNEL_ROWS. A row goes by groups of four
 * vectors: an integer dst packs them into one store. */
#ifndef TSR_CPU_BINARY_BINARY_KERNEL_BODY_H
#define TSR_CPU_BINARY_BINARY_KERNEL_BODY_H

#include <stdint.h>

#include "common/data_type.h"
#include "cpu/binary/binary_kernel.h"

#define BK_INLINE inline __attribute__((always_inline))

enum { BK_GROUP = 4 * VF_LEN };

static BK_INLINE vf bk_op(tsr_alg_kind_t op, vf a, vf b) {
    switch (op) {
    case tsr_binary_add:
        return vf_add(a, b);
    case tsr_binary_sub:
        return vf_sub(a, b);
    case tsr_binary_mul:
        return vf_mul(a, b);
    case tsr_binary_div:
        return vf_div(a, b);
    /* minps / maxps give the second operand when the first does not win:
     * exactly a < b ? a : b and a > b ? a : b, NaN included. */
    case tsr_binary_min:
        return vf_min(a, b);
    case tsr_binary_max:
        return vf_max(a, b);
    case tsr_binary_ge:
        return vf_cmp_one(a, b, _CMP_GE_OQ);
    case tsr_binary_gt:
        return vf_cmp_one(a, b, _CMP_GT_OQ);
    case tsr_binary_le:
        return vf_cmp_one(a, b, _CMP_LE_OQ);
    case tsr_binary_lt:
        return vf_cmp_one(a, b, _CMP_LT_OQ);
    case tsr_binary_eq:
        return vf_cmp_one(a, b, _CMP_EQ_OQ);
    case tsr_binary_ne:
        return vf_cmp_one(a, b, _CMP_NEQ_UQ);
    default: /* tsr_eltwise_relu: PReLU with b the weights */
        return vf_prelu(a, b);
    }
}

typedef struct {
    vf sc0, sc1, b_row;
    vi flip0, flip1;
} bk_consts_t;

/* Elements i .. i + min(left, BK_GROUP) of a row; a constant left of
 * BK_GROUP compiles to whole vectors. */
static BK_INLINE void bk_group(const binary_kernel_t *k, const bk_consts_t *c,
                               tsr_alg_kind_t op, tsr_data_type_t dt0,
                               tsr_data_type_t dt1, tsr_data_type_t dtd,
                               const void *s0, const void *s1, void *d,
                               int64_t i, int64_t left, int nt) {
    vf v[4];
    for (int j = 0; j < 4; j++) {
        const int64_t at = i + j * VF_LEN, lanes_left = left - j * VF_LEN;
        if (lanes_left <= 0) {
            v[j] = vf_zero();
            continue;
        }
        const vlanes lanes = lanes_left >= VF_LEN ? VL_FULL : vl_of(lanes_left);
        const vf a = vf_mul(vf_load_dt(dt0, s0, at, lanes, c->flip0), c->sc0);
        const vf b = k->src1_bcast
                             ? c->b_row
                             : vf_mul(vf_load_dt(dt1, s1, at, lanes, c->flip1),
                                      c->sc1);
        v[j] = bk_op(op, a, b);
    }
    group_store(dtd, d, i, v, left, k->round_mode, nt);
}

static BK_INLINE void bk_row(const binary_kernel_t *k, tsr_alg_kind_t op,
                             tsr_data_type_t dt0, tsr_data_type_t dt1,
                             tsr_data_type_t dtd, const void *s0,
                             const void *s1, void *d, int64_t n) {
    /* The sources' own types (dt0 and dt1 may be u8 standing for s8). */
    const bk_consts_t c = {
            vf_set1(k->scale0), vf_set1(k->scale1),
            vf_set1(k->scale1 * tsr_load_f32_inline(k->src1_dt, s1, 0)),
            vi_set1(k->src0_dt == tsr_s8 ? 0x80 : 0),
            vi_set1(k->src1_dt == tsr_s8 ? 0x80 : 0)};
    const uintptr_t esd = (uintptr_t)tsr_data_type_size(dtd);
    int64_t i = 0;
    if (k->nt_store && (uintptr_t)d % esd == 0) {
        /* Up to the first BK_ALIGN boundary of dst, then whole groups
         * streamed (a group is BK_ALIGN bytes or a multiple of it). */
        const int64_t head = (int64_t)((BK_ALIGN - (uintptr_t)d % BK_ALIGN) %
                                       BK_ALIGN / esd);
        if (head + BK_GROUP <= n) {
            if (head > 0)
                bk_group(k, &c, op, dt0, dt1, dtd, s0, s1, d, 0, head, 0);
            for (i = head; i + BK_GROUP <= n; i += BK_GROUP)
                bk_group(k, &c, op, dt0, dt1, dtd, s0, s1, d, i, BK_GROUP, 1);
        }
    }
    for (; i + BK_GROUP <= n; i += BK_GROUP)
        bk_group(k, &c, op, dt0, dt1, dtd, s0, s1, d, i, BK_GROUP, 0);
    if (i < n)
        bk_group(k, &c, op, dt0, dt1, dtd, s0, s1, d, i, n - i, 0);
}

static BK_INLINE void bk_rows_of(const binary_kernel_t *k, tsr_alg_kind_t op,
                                 tsr_data_type_t dt0, tsr_data_type_t dt1,
                                 tsr_data_type_t dtd, const char *s0,
                                 const char *s1, char *d, int64_t rows,
                                 int64_t n) {
    const int64_t es0 = (int64_t)tsr_data_type_size(dt0);
    const int64_t es1 = (int64_t)tsr_data_type_size(dt1);
    const int64_t esd = (int64_t)tsr_data_type_size(dtd);
    for (int64_t r = 0; r < rows; r++)
        bk_row(k, op, dt0, dt1, dtd, s0 + r * k->ld * es0,
               s1 + r * k->src1_ld * es1, d + r * k->ld * esd, n);
}

/* The op as a constant, the types as given. */
static BK_INLINE void bk_rows_typed(const binary_kernel_t *k,
                                    tsr_data_type_t dt0, tsr_data_type_t dt1,
                                    tsr_data_type_t dtd, const char *s0,
                                    const char *s1, char *d, int64_t rows,
                                    int64_t n) {
#define BK_CASE(alg)                                                           \
    case alg:                                                                  \
        bk_rows_of(k, alg, dt0, dt1, dtd, s0, s1, d, rows, n);                 \
        break
    switch (k->op) {
        BK_CASE(tsr_binary_add);
        BK_CASE(tsr_binary_sub);
        BK_CASE(tsr_binary_mul);
        BK_CASE(tsr_binary_div);
        BK_CASE(tsr_binary_min);
        BK_CASE(tsr_binary_max);
        BK_CASE(tsr_binary_ge);
        BK_CASE(tsr_binary_gt);
        BK_CASE(tsr_binary_le);
        BK_CASE(tsr_binary_lt);
        BK_CASE(tsr_binary_eq);
        BK_CASE(tsr_binary_ne);
    default:
        bk_rows_of(k, tsr_eltwise_relu, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    }
#undef BK_CASE
}

static void bk_rows_f32(const binary_kernel_t *k, const char *s0,
                        const char *s1, char *d, int64_t rows, int64_t n) {
    bk_rows_typed(k, tsr_f32, tsr_f32, tsr_f32, s0, s1, d, rows, n);
}

/* Both sources u8 or s8 (each read as u8 with its flip), into u8, s8
 * or f32, the types as constants: the conversions compile to a few
 * instructions. */
static void bk_rows_int8(const binary_kernel_t *k, const char *s0,
                         const char *s1, char *d, int64_t rows, int64_t n) {
    switch (k->dst_dt) {
    case tsr_u8:
        bk_rows_typed(k, tsr_u8, tsr_u8, tsr_u8, s0, s1, d, rows, n);
        break;
    case tsr_s8:
        bk_rows_typed(k, tsr_u8, tsr_u8, tsr_s8, s0, s1, d, rows, n);
        break;
    default:
        bk_rows_typed(k, tsr_u8, tsr_u8, tsr_f32, s0, s1, d, rows, n);
        break;
    }
}

static int bk_is_int8(tsr_data_type_t dt) {
    return dt == tsr_u8 || dt == tsr_s8;
}

static void bk_rows_mixed(const binary_kernel_t *k, const char *s0,
                          const char *s1, char *d, int64_t rows, int64_t n) {
    bk_rows_typed(k, k->src0_dt, k->src1_dt, k->dst_dt, s0, s1, d, rows, n);
}

/* Integer results in 16 bits: unscaled add, sub, mul, min and max of int8
 * sources into an int8 dst. Exact, so no rounding; the pack saturates. A
 * u8 x u8 product (up to 65025) is exact only as unsigned 16 bits: it is
 * clamped to the dst's maximum before the signed pack. */
static int bk_int16_ok(const binary_kernel_t *k) {
    const int op_ok = k->op == tsr_binary_add || k->op == tsr_binary_sub ||
                      k->op == tsr_binary_mul || k->op == tsr_binary_min ||
                      k->op == tsr_binary_max;
    return op_ok && k->scale0 == 1.f && k->scale1 == 1.f &&
           (k->src0_dt == tsr_u8 || k->src0_dt == tsr_s8) &&
           (k->src1_dt == tsr_u8 || k->src1_dt == tsr_s8) &&
           (k->dst_dt == tsr_u8 || k->dst_dt == tsr_s8);
}

static BK_INLINE vw bk_op16(tsr_alg_kind_t op, vw a, vw b) {
    switch (op) {
    case tsr_binary_add:
        return vw_add(a, b);
    case tsr_binary_sub:
        return vw_sub(a, b);
    case tsr_binary_mul:
        return vw_mullo(a, b);
    case tsr_binary_min:
        return vw_min(a, b);
    default:
        return vw_max(a, b);
    }
}

/* Whole groups in 16 bits, the tail through the f32 group; `unsigned_mul`
 * for a u8 x u8 product. */
static BK_INLINE void bk_rows_int16_of(const binary_kernel_t *k,
                                       tsr_alg_kind_t op, int unsigned_mul,
                                       tsr_data_type_t dtd, const char *s0,
                                       const char *s1, char *d, int64_t rows,
                                       int64_t n) {
    const vw dst_max = vw_set1(dtd == tsr_u8 ? 255 : 127);
    const vw flip0 = vw_set1(k->src0_dt == tsr_s8 ? 0x80 : 0);
    const vw flip1 = vw_set1(k->src1_dt == tsr_s8 ? 0x80 : 0);
    for (int64_t r = 0; r < rows; r++) {
        const char *r0 = s0 + r * k->ld, *r1 = s1 + r * k->src1_ld;
        char *rd = d + r * k->ld;
        const vw b_row =
                vw_set1((int16_t)tsr_load_f32_inline(k->src1_dt, r1, 0));
        int64_t i = 0;
        for (; i + BK_GROUP <= n; i += BK_GROUP) {
            vw v[2];
            for (int h = 0; h < 2; h++) {
                const vw a = vw_load_bytes(r0, i, h, flip0);
                const vw b =
                        k->src1_bcast ? b_row : vw_load_bytes(r1, i, h, flip1);
                v[h] = bk_op16(op, a, b);
                if (unsigned_mul)
                    v[h] = vw_min_unsigned(v[h], dst_max);
            }
            bytes_store(dtd, rd, i, v[0], v[1]);
        }
        if (i < n) {
            const bk_consts_t c = {
                    vf_set1(1.f), vf_set1(1.f),
                    vf_set1(tsr_load_f32_inline(k->src1_dt, r1, 0)),
                    vi_set1(k->src0_dt == tsr_s8 ? 0x80 : 0),
                    vi_set1(k->src1_dt == tsr_s8 ? 0x80 : 0)};
            bk_group(k, &c, op, tsr_u8, tsr_u8, dtd, r0, r1, rd, i, n - i, 0);
        }
    }
}

static void bk_rows_int16(const binary_kernel_t *k, const char *s0,
                          const char *s1, char *d, int64_t rows, int64_t n) {
    const tsr_data_type_t dtd = k->dst_dt;
#define BK_CASE16(alg)                                                         \
    case alg:                                                                  \
        if (dtd == tsr_u8)                                                     \
            bk_rows_int16_of(k, alg, 0, tsr_u8, s0, s1, d, rows, n);           \
        else                                                                   \
            bk_rows_int16_of(k, alg, 0, tsr_s8, s0, s1, d, rows, n);           \
        break
    if (k->op == tsr_binary_mul && k->src0_dt == tsr_u8 &&
        k->src1_dt == tsr_u8) {
        if (dtd == tsr_u8)
            bk_rows_int16_of(k, tsr_binary_mul, 1, tsr_u8, s0, s1, d, rows, n);
        else
            bk_rows_int16_of(k, tsr_binary_mul, 1, tsr_s8, s0, s1, d, rows, n);
        return;
    }
    switch (k->op) {
        BK_CASE16(tsr_binary_add);
        BK_CASE16(tsr_binary_sub);
        BK_CASE16(tsr_binary_mul);
        BK_CASE16(tsr_binary_min);
    default:
        BK_CASE16(tsr_binary_max);
    }
#undef BK_CASE16
}

void BINARY_KERNEL_ROWS(const binary_kernel_t *k, const void *src0,
                        const void *src1, void *dst, int64_t rows, int64_t n) {
    if (k->src0_dt == tsr_f32 && k->src1_dt == tsr_f32 && k->dst_dt == tsr_f32)
        bk_rows_f32(k, src0, src1, dst, rows, n);
    else if (bk_int16_ok(k))
        bk_rows_int16(k, src0, src1, dst, rows, n);
    else if (bk_is_int8(k->src0_dt) && bk_is_int8(k->src1_dt) &&
             (bk_is_int8(k->dst_dt) || k->dst_dt == tsr_f32))
        bk_rows_int8(k, src0, src1, dst, rows, n);
    else
        bk_rows_mixed(k, src0, src1, dst, rows, n);
    if (k->nt_store)
        vf_stream_fence();
}

#endif
