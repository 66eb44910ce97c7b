/* AVX-512 kernel of the transposing reorder: 16 x 16 tiles loaded row by
 * row as f32 (or as raw bits for a bit-exact move), transposed in
 * registers, scaled, converted, and staged as whole destination lines of
 * 64 bytes, which are then written out (non-temporal for large
 * destinations). The arithmetic is reorder_apply's, in its order. */
#include <immintrin.h>
#include <stdint.h>

#include "common/data_type_avx512.h"
#include "common/utils.h"
#include "simple_reorder_transpose.h"

/* In place: r[k] holds row k of a 16 x 16 block; afterwards column k. */
static inline void transpose_16x16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    /* r[4i + j], 128-bit lane l: column 4l + j of rows 4i .. 4i + 3. */
    for (int i = 0; i < 4; i++) {
        r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xee);
        r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xee);
    }
    for (int j = 0; j < 4; j++) {
        t[j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88);
        t[4 + j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xdd);
        t[8 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
        t[12 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xdd);
    }
    for (int j = 0; j < 4; j++) {
        r[j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88);
        r[8 + j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0xdd);
        r[4 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0x88);
        r[12 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0xdd);
    }
}

enum { LINE = 64 };

/* One chunk of nr x nc elements (at most chunk_rows x chunk_cols) into
 * `stage`: column k's rows at stage + k * chunk_rows * dst size. Inlined
 * per type pair. */
static inline __attribute__((always_inline)) void
chunk_to_stage(const transpose_plan_t *p, const transpose_op_t *op,
               tsr_data_type_t sdt, tsr_data_type_t ddt, const char *src,
               tsr_dim_t nr, tsr_dim_t nc, unsigned char *stage) {
    const size_t ses = tsr_data_type_size(sdt), des = tsr_data_type_size(ddt);
    const __m512 alpha = _mm512_set1_ps(op->alpha);
    const __m512 src_zp = _mm512_set1_ps(op->src_zp);
    const __m512 dst_zp = _mm512_set1_ps(op->dst_zp);
    for (tsr_dim_t rt = 0; rt < nr; rt += 16) {
        const tsr_dim_t mr = TSR_MIN(16, nr - rt);
        for (tsr_dim_t ct = 0; ct < nc; ct += 16) {
            const tsr_dim_t mc = TSR_MIN(16, nc - ct);
            const __mmask16 m = (__mmask16)((1u << mc) - 1);
            __m512 v[16];
            for (int i = 0; i < 16; i++) {
                const char *row = src + ((rt + i) * p->src_row_stride + ct) *
                                                (tsr_dim_t)ses;
                /* The next chunk's part of a long row: with many strided
                 * rows the hardware prefetchers do not keep up. */
                if (i < mr && p->cols > p->chunk_cols)
                    _mm_prefetch(row + p->chunk_cols * (tsr_dim_t)ses,
                                 _MM_HINT_T0);
                if (i >= mr)
                    v[i] = _mm512_setzero_ps();
                else if (op->move_only)
                    v[i] = _mm512_castsi512_ps(
                            tsr_load_16_bits_avx512(ses, row, m));
                else
                    v[i] = tsr_load_16_as_f32_avx512(sdt, row, m);
            }
            transpose_16x16(v);
            for (int k = 0; k < mc; k++) {
                unsigned char *to = stage + ((ct + k) * p->chunk_rows + rt) *
                                                    (tsr_dim_t)des;
                if (op->move_only) {
                    tsr_store_16_bits_avx512(des, _mm512_castps_si512(v[k]),
                                             to);
                    continue;
                }
                __m512 x = _mm512_mul_ps(alpha, _mm512_sub_ps(v[k], src_zp));
                if (op->has_dst_zp)
                    x = _mm512_add_ps(x, dst_zp);
                tsr_store_16_f32_as_avx512(ddt, x, to, op->round_mode);
            }
        }
    }
}

static void chunk_to_stage_any(const transpose_plan_t *p,
                               const transpose_op_t *op, const char *src,
                               tsr_dim_t nr, tsr_dim_t nc,
                               unsigned char *stage) {
    const tsr_data_type_t s = op->src_dt, d = op->dst_dt;
    if (op->move_only)
        chunk_to_stage(p, op, s, d, src, nr, nc, stage);
    else if (s == tsr_f32 && d == tsr_s8)
        chunk_to_stage(p, op, tsr_f32, tsr_s8, src, nr, nc, stage);
    else if (s == tsr_f32 && d == tsr_u8)
        chunk_to_stage(p, op, tsr_f32, tsr_u8, src, nr, nc, stage);
    else if (s == tsr_s8 && d == tsr_f32)
        chunk_to_stage(p, op, tsr_s8, tsr_f32, src, nr, nc, stage);
    else if (s == tsr_u8 && d == tsr_f32)
        chunk_to_stage(p, op, tsr_u8, tsr_f32, src, nr, nc, stage);
    else if (s == tsr_f32 && d == tsr_f32)
        chunk_to_stage(p, op, tsr_f32, tsr_f32, src, nr, nc, stage);
    else
        chunk_to_stage(p, op, s, d, src, nr, nc, stage);
}

/* A bit-exact move of 4-byte elements in chunks of 16 rows into a
 * destination whose columns are consecutive lines (nchw -> nChw16c): each
 * transposed register is one destination line, stored from there. */
static int lines_direct(const transpose_plan_t *p, const transpose_op_t *op) {
    return op->move_only && tsr_data_type_size(op->src_dt) == 4 &&
           p->chunk_rows == 16 && p->dst_col_stride == 16;
}

static void chunk_to_lines(const transpose_plan_t *p, const transpose_op_t *op,
                           const char *src, tsr_dim_t nc, char *dst) {
    const int stream = op->stream && (uintptr_t)dst % LINE == 0;
    for (tsr_dim_t ct = 0; ct < nc; ct += 16) {
        const tsr_dim_t mc = TSR_MIN(16, nc - ct);
        const __mmask16 m = (__mmask16)((1u << mc) - 1);
        __m512 v[16];
        for (int i = 0; i < 16; i++) {
            const float *row = (const float *)src + i * p->src_row_stride + ct;
            if (p->cols > p->chunk_cols)
                _mm_prefetch((const char *)(row + p->chunk_cols), _MM_HINT_T0);
            v[i] = _mm512_maskz_loadu_ps(m, row);
        }
        transpose_16x16(v);
        float *to = (float *)dst + ct * 16;
        for (int k = 0; k < mc; k++) {
            if (stream)
                _mm512_stream_ps(to + k * 16, v[k]);
            else
                _mm512_storeu_ps(to + k * 16, v[k]);
        }
    }
}

/* The staged chunk's nc columns of nr elements written to dst, a column
 * at a stride of dst_col_stride elements. */
static void stage_to_dst(const transpose_plan_t *p, const transpose_op_t *op,
                         const unsigned char *stage, tsr_dim_t nr, tsr_dim_t nc,
                         char *d) {
    const tsr_dim_t des = (tsr_dim_t)tsr_data_type_size(op->dst_dt);
    const tsr_dim_t stage_line = p->chunk_rows * des;
    const tsr_dim_t bytes = nr * des;
    const __mmask64 tail = ((__mmask64)1 << (bytes % LINE)) - 1;
    for (tsr_dim_t k = 0; k < nc; k++) {
        char *to = d + k * p->dst_col_stride * des;
        const unsigned char *from = stage + k * stage_line;
        const int stream = op->stream && (uintptr_t)to % LINE == 0;
        tsr_dim_t b = 0;
        for (; b + LINE <= bytes; b += LINE) {
            const __m512i x = _mm512_load_si512(from + b);
            if (stream)
                _mm512_stream_si512((void *)(to + b), x);
            else
                _mm512_storeu_si512(to + b, x);
        }
        if (b < bytes)
            _mm512_mask_storeu_epi8(to + b, tail, _mm512_load_si512(from + b));
    }
}

void transpose_items_avx512(const transpose_plan_t *p, const transpose_op_t *op,
                            const char *src, char *dst, tsr_dim_t begin,
                            tsr_dim_t end) {
    const tsr_dim_t ses = (tsr_dim_t)tsr_data_type_size(op->src_dt);
    const tsr_dim_t des = (tsr_dim_t)tsr_data_type_size(op->dst_dt);
    _Alignas(64) unsigned char stage[TRANSPOSE_STAGE_BYTES];
    const int direct = lines_direct(p, op);
    /* The item's coordinates are stepped, not divided out, per item. */
    tsr_dim_t cc = begin % p->col_chunks;
    tsr_dim_t rc = begin / p->col_chunks % p->row_chunks;
    tsr_dim_t idx[2 * TSR_MAX_NDIMS];
    tsr_dim_t batch = begin / p->col_chunks / p->row_chunks;
    for (int j = p->nbatch - 1; j >= 0; j--) {
        idx[j] = batch % p->batch_extent[j];
        batch /= p->batch_extent[j];
    }
    for (tsr_dim_t item = begin; item < end; item++) {
        tsr_dim_t src_off = 0, dst_off = 0;
        for (int j = 0; j < p->nbatch; j++) {
            src_off += idx[j] * p->batch_src_stride[j];
            dst_off += idx[j] * p->batch_dst_stride[j];
        }
        const tsr_dim_t r0 = rc * p->chunk_rows, c0 = cc * p->chunk_cols;
        const tsr_dim_t nr = TSR_MIN(p->chunk_rows, p->rows - r0);
        const tsr_dim_t nc = TSR_MIN(p->chunk_cols, p->cols - c0);
        src_off += r0 * p->src_row_stride + c0;
        dst_off += r0 + c0 * p->dst_col_stride;
        char *d = dst + dst_off * des;
        if (direct && nr == 16) {
            chunk_to_lines(p, op, src + src_off * ses, nc, d);
        } else {
            chunk_to_stage_any(p, op, src + src_off * ses, nr, nc, stage);
            stage_to_dst(p, op, stage, nr, nc, d);
        }
        if (++cc < p->col_chunks)
            continue;
        cc = 0;
        if (++rc < p->row_chunks)
            continue;
        rc = 0;
        for (int j = p->nbatch - 1; j >= 0 && ++idx[j] == p->batch_extent[j];
             j--)
            idx[j] = 0;
    }
    if (op->stream)
        _mm_sfence();
}
