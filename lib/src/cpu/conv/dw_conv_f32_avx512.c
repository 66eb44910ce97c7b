/* The AVX-512 row kernel of "dw:f32" (contract in dw_conv_f32.h): the
 * blocks of the AVX2 kernel (dw_conv_f32_avx2.c, which explains them) on
 * vectors of 16 channels, for channels-last data (channel vectors
 * contiguous) and 16-channel blocked data (vectors a block stride apart,
 * taken one at a time); 8-channel blocked data goes to the AVX2 kernel.
 * A channel tail is a masked vector.
 *
 * Results are those of the AVX2 kernel bit for bit: every output element
 * is zero plus one FMA per tap in the order (kd, kh, kw), taps in the
 * padding read as zeros in the same places, then the bias added at the
 * store. With twice the registers, general blocks take twice the channels
 * per point (64, the whole group, for up to 6 points). */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/common/epilogue_common_avx512.h"
#include "cpu/conv/dw_conv_f32.h"

#define VLEN 16
#define UR 6
#define NV_MAX 4 /* GROUP_C / VLEN */
#define GROUP_C DW_GROUP_C
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* Loops over registers (points, vectors, taps of a column) must unroll
 * fully for the accumulators to stay in registers. */
#define UNROLL _Pragma("GCC unroll 32")

/* What border blocks read for taps in the padding. */
static const float zeros[GROUP_C];

typedef dw_tap_t tap_t;

/* How a general block reads its inputs. */
enum { INTERIOR, TABLE };

/* The call's state in locals the compiler can keep in registers. Channel
 * vector v of a group is at offset v * VLEN in src, dst and weights. */
typedef struct {
    const tap_t *taps; /* nrows x KW, row-major */
    int nrows;
    tsr_dim_t KW, SW, padL, ow0;
    tsr_dim_t src_sw, dst_sw;
    /* Offsets of consecutive 16-channel vectors: 16 channels-last, the
     * block stride blocked (where blocks go one vector at a time). */
    tsr_dim_t src_vs, dst_vs;
    float *dst;
    const float *bias;
    const float **table; /* TABLE blocks: input of (tap t, point u) at
                            t * ur + u */
    int s32;             /* store_s32 */
    /* The fused common store (dw_row_args_t.common, or NULL): dst of the
     * group at cdst, its first channel cc0 among the operands', the
     * form's type and flags. */
    const tsr_epilogue_common_t *common;
    char *cdst;
    tsr_dim_t cc0;
    tsr_data_type_t cdt;
    int clegacy, cbias, crelu0;
    /* k3 blocks walk nh output rows down a band (dw_row_args_t.nh): row h
     * reads the taps' inputs h * src_hs further and stores h * dst_hs
     * further. The general blocks take one row (nh 1). */
    tsr_dim_t nh, src_hs, dst_hs;
} row_t;

static ALWAYS_INLINE __mmask16 lane_mask(tsr_dim_t n) {
    return (__mmask16)((1u << n) - 1u);
}

/* Vector v of nv, masked when it is the last and `masked`. */
static ALWAYS_INLINE __m512 load(const float *p, int v, int nv, int masked,
                                 __mmask16 mask) {
    return masked && v == nv - 1 ? _mm512_maskz_loadu_ps(mask, p)
                                 : _mm512_loadu_ps(p);
}

/* Keeps a loaded vector in its register: without this GCC folds the load
 * into every FMA that uses it, loading each input column once per tap
 * instead of once. */
static ALWAYS_INLINE void in_register(__m512 *x) {
    __asm__("" : "+v"(*x));
}

static ALWAYS_INLINE const float *at(const float *p, intptr_t bytes) {
    return (const float *)((const char *)p + bytes);
}

/* The ur x nv accumulators of a block at output point ow, channel offset
 * c, through the common store into dst's type: the steps of
 * tsr_epilogue_apply_rows_s32 on the same exact integer sums, so the same
 * results, in the kernel's store instead of a pass over a tile. Out of
 * line, its counts not constants: inlined into every block instance it
 * tripled this file's code and compile time (and inlined into the
 * one-vector instances only, it cost their f32 rows 10%). */
static __attribute__((noinline)) void store_common(const row_t *rw, tsr_dim_t c,
                                                   const __m512 *acc, int nv,
                                                   int masked, __mmask16 mask,
                                                   tsr_dim_t ow, int ur,
                                                   tsr_dim_t dst_h) {
    const tsr_epilogue_common_t *cs = rw->common;
    const tsr_epilogue_fused_args_t *f = &cs->f;
    const int64_t es = cs->dt_bytes;
    const tsr_dim_t dsw = rw->dst_sw;
    char *d0 = rw->cdst + (dst_h + ow * dsw + (c / VLEN) * rw->dst_vs) * es;
    const __m512 src_scale = _mm512_set1_ps(f->src_scale);
    const __m512 hi = _mm512_set1_ps(cs->hi);
    const int ss = f->plan->with_src_scale, ws = f->plan->with_wei_scale;
    for (int v = 0; v < nv; v++) {
        const int part = masked && v == nv - 1;
        const __mmask16 k = part ? mask : (__mmask16)0xffff;
        const tsr_ep_cols16_t cv = tsr_ep_cols16(f, rw->cc0 + c + v * VLEN, k);
        for (int u = 0; u < ur; u++)
            tsr_ep_store16(tsr_ep_scale_bias_16(src_scale, &cv, acc[u * nv + v],
                                                rw->clegacy, rw->cbias, ss, ws),
                           d0 + (u * dsw + v * VLEN) * es, !part, k, rw->cdt,
                           rw->crelu0, hi);
    }
}

/* Stores the ur x nv accumulators of a block at output point ow, channel
 * offset c, dst_h elements into dst (bias added first when the row has
 * one). */
static ALWAYS_INLINE void store_points(const row_t *rw, tsr_dim_t c,
                                       __m512 *acc, const int nv,
                                       const int masked, __mmask16 mask,
                                       tsr_dim_t ow, const int ur,
                                       tsr_dim_t dst_h) {
    if (rw->common) {
        /* A copy: acc's own address must not escape, or the compiler keeps
         * the accumulators in memory through the whole block. */
        __m512 out[UR * NV_MAX];
        UNROLL
        for (int i = 0; i < ur * nv; i++)
            out[i] = acc[i];
        store_common(rw, c, out, nv, masked, mask, ow, ur, dst_h);
        return;
    }
    /* In locals: vector stores may alias anything, *rw included. */
    const tsr_dim_t dsw = rw->dst_sw;
    const float *bias = rw->bias;
    const int s32 = rw->s32;
    float *d0 = rw->dst + dst_h + ow * dsw + (c / VLEN) * rw->dst_vs;
    UNROLL
    for (int v = 0; v < nv; v++) {
        if (bias) {
            const __m512 b = load(bias + c + v * VLEN, v, nv, masked, mask);
            UNROLL
            for (int u = 0; u < ur; u++)
                acc[u * nv + v] = _mm512_add_ps(acc[u * nv + v], b);
        }
        UNROLL
        for (int u = 0; u < ur; u++) {
            float *d = d0 + u * dsw + v * VLEN;
            if (s32) {
                const __m512i x = _mm512_cvttps_epi32(acc[u * nv + v]);
                if (masked && v == nv - 1)
                    _mm512_mask_storeu_epi32(d, mask, x);
                else
                    _mm512_storeu_si512(d, x);
            } else if (masked && v == nv - 1) {
                _mm512_mask_storeu_ps(d, mask, acc[u * nv + v]);
            } else {
                _mm512_storeu_ps(d, acc[u * nv + v]);
            }
        }
    }
}

/* `ur` points from ow (relative to ow0), `nv` channel vectors from channel
 * offset c (the last masked when `masked`), over every tap. */
static ALWAYS_INLINE void points(const row_t *rw, tsr_dim_t c, const int nv,
                                 const int masked, __mmask16 mask, tsr_dim_t ow,
                                 const int ur, const int kind) {
    __m512 acc[UR * NV_MAX];
    UNROLL
    for (int i = 0; i < ur * nv; i++)
        acc[i] = _mm512_setzero_ps();
    /* Points 0..2 from p0, 3..5 from p3: x86 addressing scales the stride
     * by 1 or 2. */
    const intptr_t pt =
            (intptr_t)(rw->SW * rw->src_sw * (tsr_dim_t)sizeof(float));
    const tsr_dim_t off = ((rw->ow0 + ow) * rw->SW - rw->padL) * rw->src_sw + c;
    const tsr_dim_t ntaps = rw->nrows * rw->KW;
    for (tsr_dim_t k = 0; k < ntaps; k++) {
        const float *p0 = rw->taps[k].src + off;
        const float *p3 = at(p0, 3 * pt);
        const float *w = rw->taps[k].wei + c;
        __m512 wv[NV_MAX];
        UNROLL
        for (int v = 0; v < nv; v++)
            wv[v] = load(w + v * VLEN, v, nv, masked, mask);
        UNROLL
        for (int u = 0; u < ur; u++) {
            const float *p = kind == TABLE ? rw->table[k * ur + u] + c
                             : u < 3       ? at(p0, u * pt)
                                           : at(p3, (u - 3) * pt);
            UNROLL
            for (int v = 0; v < nv; v++)
                acc[u * nv + v] =
                        _mm512_fmadd_ps(load(p + v * VLEN, v, nv, masked, mask),
                                        wv[v], acc[u * nv + v]);
        }
    }
    store_points(rw, c, acc, nv, masked, mask, ow, ur, 0);
}

/* One block of `ur` points for every channel of the group (at most
 * NV_MAX vectors): the full vectors in runs of 4, 2, 1, then a masked
 * tail. */
static ALWAYS_INLINE void block(const row_t *rw, tsr_dim_t nc, tsr_dim_t ow,
                                const int ur, const int kind) {
    const tsr_dim_t nfull = nc / VLEN, tail = nc % VLEN;
    tsr_dim_t j = 0;
    if (j + 4 <= nfull) {
        points(rw, j * VLEN, 4, 0, 0, ow, ur, kind);
        j += 4;
    }
    if (j + 2 <= nfull) {
        points(rw, j * VLEN, 2, 0, 0, ow, ur, kind);
        j += 2;
    }
    if (j < nfull) {
        points(rw, j * VLEN, 1, 0, 0, ow, ur, kind);
        j++;
    }
    if (tail)
        points(rw, j * VLEN, 1, 1, lane_mask(tail), ow, ur, kind);
}

static ALWAYS_INLINE void block_of(const row_t *rw, tsr_dim_t nc, tsr_dim_t ow,
                                   int ur, const int kind) {
    switch (ur) {
    case UR:
        block(rw, nc, ow, UR, kind);
        break;
    case 3:
        block(rw, nc, ow, 3, kind);
        break;
    case 2:
        block(rw, nc, ow, 2, kind);
        break;
    default:
        block(rw, nc, ow, 1, kind);
        break;
    }
}

/* The row segment for one channel group, general taps. */
static void row(const row_t *rw, const dw_row_args_t *a, tsr_dim_t nc,
                tsr_dim_t in_lo, tsr_dim_t in_hi) {
    tsr_dim_t ow = 0;
    while (ow < a->now) {
        const tsr_dim_t rem = a->now - ow;
        const int ur = rem >= UR ? UR : rem >= 3 ? 3 : rem >= 2 ? 2 : 1;
        if (ow >= in_lo && ow + ur <= in_hi) {
            block_of(rw, nc, ow, ur, INTERIOR);
        } else {
            dw_fill_table(a, rw->taps, zeros, ow, ur, rw->table);
            block_of(rw, nc, ow, ur, TABLE);
        }
        ow += ur;
    }
}

/* Rows of 3 taps at stride `sw` 1 or 2 and no dilation: each input column
 * of a block is loaded once and feeds every point it is a tap of, the
 * row's 3 weights vectors in registers. Columns in the padding read as
 * zeros. Per point the taps still add in the order (row, kw). `nr`: the
 * number of rows when fixed (3), else 0. */
static ALWAYS_INLINE void k3_points(const row_t *rw, tsr_dim_t c, const int nv,
                                    const int masked, __mmask16 mask,
                                    tsr_dim_t ow, const int ur, const int sw,
                                    const int border, tsr_dim_t IW,
                                    const int nr) {
    const tsr_dim_t iw0 = (rw->ow0 + ow) * sw - rw->padL;
    const int nrows = nr ? nr : rw->nrows;
    for (tsr_dim_t h = 0; h < rw->nh; h++) {
        __m512 acc[16];
        UNROLL
        for (int i = 0; i < ur * nv; i++)
            acc[i] = _mm512_setzero_ps();
        for (int r = 0; r < nrows; r++) {
            const tap_t *t = rw->taps + r * 3;
            __m512 w[3][2];
            UNROLL
            for (int kw = 0; kw < 3; kw++)
                UNROLL
            for (int v = 0; v < nv; v++) {
                w[kw][v] = load(t[kw].wei + c + v * VLEN, v, nv, masked, mask);
                in_register(&w[kw][v]);
            }
            /* Column col at base[col / 4] + (col % 4) * sb: x86 addressing
             * scales sb by 1 or 2, 3 * sb is one more register. */
            const int ncols = (ur - 1) * sw + 3;
            const float *base[8]; /* up to 32 columns */
            const intptr_t sb =
                    (intptr_t)(rw->src_sw * (tsr_dim_t)sizeof(float));
            base[0] = t[0].src + h * rw->src_hs + iw0 * rw->src_sw +
                      (c / VLEN) * rw->src_vs;
            UNROLL
            for (int b = 1; b < (ncols + 3) / 4; b++)
                base[b] = at(base[b - 1], 4 * sb);
            UNROLL
            for (int col = 0; col < ncols; col++) {
                const int valid = dw_k3_col_inside(border, col, ncols, iw0, IW);
                const float *p = at(base[col / 4], (col % 4) * sb);
                UNROLL
                for (int v = 0; v < nv; v++) {
                    __m512 x = valid ? load(p + v * VLEN, v, nv, masked, mask)
                                     : _mm512_setzero_ps();
                    in_register(&x);
                    UNROLL
                    for (int kw = 0; kw < 3; kw++) {
                        const int u = (col - kw) / sw;
                        if (col >= kw && (col - kw) % sw == 0 && u < ur)
                            acc[u * nv + v] = _mm512_fmadd_ps(x, w[kw][v],
                                                              acc[u * nv + v]);
                    }
                }
            }
        }
        store_points(rw, c, acc, nv, masked, mask, ow, ur, h * rw->dst_hs);
    }
}

/* A k3 block for every channel of the group: NV vectors at a time, then
 * one, then a masked tail. */
static ALWAYS_INLINE void k3_block(const row_t *rw, tsr_dim_t nc, tsr_dim_t ow,
                                   const int ur, const int NV, const int sw,
                                   const int border, tsr_dim_t IW,
                                   const int nr) {
    const tsr_dim_t nfull = nc / VLEN, tail = nc % VLEN;
    tsr_dim_t j = 0;
    for (; j + NV <= nfull; j += NV)
        k3_points(rw, j * VLEN, NV, 0, 0, ow, ur, sw, border, IW, nr);
    if (NV > 1 && j < nfull) {
        k3_points(rw, j * VLEN, 1, 0, 0, ow, ur, sw, border, IW, nr);
        j++;
    }
    if (tail)
        k3_points(rw, j * VLEN, 1, 1, lane_mask(tail), ow, ur, sw, border, IW,
                  nr);
}

/* A stride-2 block of `ur` points that ends a row: interior, or with its
 * padding columns tested one by one. */
static ALWAYS_INLINE void k3_tail_ur(const row_t *rw, const dw_row_args_t *a,
                                     tsr_dim_t nc, tsr_dim_t ow, const int ur,
                                     const int nr, const int NV) {
    const tsr_dim_t iw0 = (a->ow0 + ow) * 2 - a->padL;
    if (iw0 >= 0 && iw0 + (ur - 1) * 2 + 3 <= a->IW)
        k3_block(rw, nc, ow, ur, NV, 2, K3_INTERIOR, a->IW, nr);
    else
        k3_block(rw, nc, ow, ur, NV, 2, K3_ANY, a->IW, nr);
}

/* The stride-2 last block of 3 or 2 points, out of line so as not to
 * change how the compiler allocates the registers of the hot blocks. */
static __attribute__((noinline)) void k3_tail(const row_t *rw,
                                              const dw_row_args_t *a,
                                              tsr_dim_t nc, tsr_dim_t ow,
                                              int ur, int nr, int blk) {
    if (blk && ur == 3)
        k3_tail_ur(rw, a, nc, ow, 3, 0, 1);
    else if (blk)
        k3_tail_ur(rw, a, nc, ow, 2, 0, 1);
    else if (ur == 3 && nr == 3)
        k3_tail_ur(rw, a, nc, ow, 3, 3, 2);
    else if (ur == 3)
        k3_tail_ur(rw, a, nc, ow, 3, 0, 2);
    else if (nr == 3)
        k3_tail_ur(rw, a, nc, ow, 2, 3, 2);
    else
        k3_tail_ur(rw, a, nc, ow, 2, 0, 2);
}

/* k3_block with the block's kind (`kind`) as a constant. */
#define K3_KINDS(UR, NV)                                                       \
    switch (kind) {                                                            \
    case K3_INTERIOR:                                                          \
        k3_block(rw, nc, ow, UR, NV, sw, K3_INTERIOR, a->IW, nr);              \
        break;                                                                 \
    case K3_LEFT:                                                              \
        k3_block(rw, nc, ow, UR, NV, sw, K3_LEFT, a->IW, nr);                  \
        break;                                                                 \
    case K3_RIGHT:                                                             \
        k3_block(rw, nc, ow, UR, NV, sw, K3_RIGHT, a->IW, nr);                 \
        break;                                                                 \
    case K3_LEFT_RIGHT:                                                        \
        k3_block(rw, nc, ow, UR, NV, sw, K3_LEFT_RIGHT, a->IW, nr);            \
        break;                                                                 \
    default:                                                                   \
        k3_block(rw, nc, ow, UR, NV, sw, K3_ANY, a->IW, nr);                   \
        break;                                                                 \
    }

/* A stride-2 row of blocked data: blocks of 14 points while they last
 * (29 columns, 14 accumulators: each block reloads its 9 weight vectors
 * and most of its columns feed two points), then one of 8, 7 or 4, and
 * the 3- or 2-point tail. MobileNet's stride-2 rows of 7 to 56 points
 * take whole blocks of 14 or one of 7. Blocks of 14 only with all 3
 * kernel rows (nr): the few output rows at the top and bottom borders
 * take the shorter blocks, which halves the instances of 14. */
static ALWAYS_INLINE void k3_row_blk_s2(const row_t *rw, const dw_row_args_t *a,
                                        tsr_dim_t nc, const int nr) {
    const int sw = 2;
    const tsr_dim_t now = a->now;
    tsr_dim_t ow = 0;
    while (now - ow >= 4) {
        const tsr_dim_t rem = now - ow;
        const int bur = rem >= 14 && nr ? 14 : rem >= 8 ? 8 : rem == 7 ? 7 : 4;
        const int kind = dw_k3_kind((a->ow0 + ow) * 2 - a->padL,
                                    (bur - 1) * 2 + 3, a->IW);
        if (bur == 14) {
            K3_KINDS(14, 1)
        } else if (bur == 8) {
            K3_KINDS(8, 1)
        } else if (bur == 7) {
            K3_KINDS(7, 1)
        } else {
            K3_KINDS(4, 1)
        }
        ow += bur;
    }
    /* At least 4 points in all: a tail of 1 takes the last 2. */
    if (now - ow == 3)
        k3_tail(rw, a, nc, ow, 3, nr, 1);
    else if (ow < now)
        k3_tail(rw, a, nc, now - 2, 2, nr, 1);
}

/* The row segment (at least 4 points) in the AVX2 kernel's blocks: 8 or 7
 * points, or 4 (with two channel vectors at stride 2 or when shorter; one
 * vector when `blk`: blocked data, whose vectors go one at a time); at
 * stride 1 the last block overlaps the one before, at stride 2 a
 * narrower one (3 or 2 points) ends the row. Blocked rows of a multiple
 * of 14 points at stride 1 take blocks of 14, which load each weight
 * vector and edge column half as often (MobileNet ow 28 and 56, 2
 * threads: +6% and +3%; all 3 kernel rows only, as in k3_row_blk_s2);
 * blocked stride-2 rows take k3_row_blk_s2's. Each
 * block's padding columns are dispatched to an instance where they are
 * constants. */
static ALWAYS_INLINE void k3_row_sw(const row_t *rw, const dw_row_args_t *a,
                                    tsr_dim_t nc, const int sw, const int nr,
                                    int blk) {
    const tsr_dim_t now = a->now;
    if (sw == 2 && blk) {
        k3_row_blk_s2(rw, a, nc, nr);
        return;
    }
    const int ur = sw == 2                      ? 4
                   : blk && nr && now % 14 == 0 ? 14
                   : now % 8 == 0               ? 8
                   : now % 7 == 0               ? 7
                   : now >= 8                   ? 8
                                                : 4;
    const tsr_dim_t end = sw == 2 ? now - now % ur : now;
    for (tsr_dim_t ow0 = 0; ow0 < end; ow0 += ur) {
        const tsr_dim_t ncols = (ur - 1) * sw + 3;
        const tsr_dim_t ow = ow0 + ur > now ? now - ur : ow0;
        const int kind = dw_k3_kind((a->ow0 + ow) * sw - a->padL, ncols, a->IW);
        if (ur == 14) {
            K3_KINDS(14, 1)
        } else if (ur == 8) {
            K3_KINDS(8, 1)
        } else if (ur == 7) {
            K3_KINDS(7, 1)
        } else if (blk) {
            K3_KINDS(4, 1)
        } else {
            K3_KINDS(4, 2)
        }
    }
    if (now - end == 3)
        k3_tail(rw, a, nc, end, 3, nr, blk);
    else if (end < now)
        k3_tail(rw, a, nc, now - 2, 2, nr, blk);
}

static void k3_row(const row_t *rw, const dw_row_args_t *a, tsr_dim_t nc,
                   int blk) {
    /* Rows of 3 (kh) taps, fixed: the row loop unrolls. */
    if (rw->nrows == 3) {
        if (a->SW == 1)
            k3_row_sw(rw, a, nc, 1, 3, blk);
        else
            k3_row_sw(rw, a, nc, 2, 3, blk);
    } else {
        if (a->SW == 1)
            k3_row_sw(rw, a, nc, 1, 0, blk);
        else
            k3_row_sw(rw, a, nc, 2, 0, blk);
    }
}

void dw_conv_row_avx512(const dw_row_args_t *a) {
    if (a->src_cv != DW_VLEN || a->dst_cv != DW_VLEN) {
        dw_conv_row_avx2(a);
        return;
    }
    tap_t taps[DW_MAX_TAPS];
    const float *table[DW_MAX_TAPS * UR];
    const int blk = a->src_bs || a->dst_bs;
    const tsr_dim_t src_vs = a->src_bs ? a->src_bs : VLEN;
    const tsr_dim_t dst_vs = a->dst_bs ? a->dst_bs : VLEN;
    const int form = a->common ? a->common_form - 1 : 0;
    const int k3 = dw_k3_rows(a);
    /* k3 blocks walk the call's band of rows themselves (row_t.nh): the
     * taps, their kind and the block dispatch once per group, not per
     * row, and the rows a block shares with the next are read while in
     * L1 (MobileNet's dw layers, mb1, 2 threads: 6% faster, rows of 28
     * and 56 points 13%). */
    row_t rw = {taps,     a->nrows,       a->KW,     a->SW,
                a->padL,  a->ow0,         a->src_sw, a->dst_sw,
                src_vs,   dst_vs,         a->dst,    a->bias,
                table,    a->store_s32,   a->common, NULL,
                0,        a->common_dt,   form >> 2, (form >> 1) & 1,
                form & 1, k3 ? a->nh : 1, a->src_hs, a->dst_hs};
    tsr_dim_t in_lo, in_hi;
    dw_interior_points(a, &in_lo, &in_hi);
    /* Stride-2 k3 rows walk every channel of the call at each block of
     * points, as in the AVX2 kernel, and so do blocked k3 rows (their
     * vectors go one at a time, at offsets of the vector strides), but
     * in bands only as many blocks as keep their input rows in L1 down
     * the band. Other blocked rows take one vector per group. */
    const tsr_dim_t group = blk && k3 && a->nh > 1      ? dw_band_group(a, VLEN)
                            : k3 && (a->SW == 2 || blk) ? a->nc
                            : blk                       ? VLEN
                                                        : GROUP_C;
    for (tsr_dim_t c = 0; c < a->nc; c += group) {
        const tsr_dim_t nc = a->nc - c < group ? a->nc - c : group;
        rw.bias = a->bias ? a->bias + c : NULL;
        for (tsr_dim_t h = 0; h < a->nh; h += rw.nh) {
            /* The group's first channel folded into every pointer, so
             * the vector offsets inside it are constants. */
            dw_set_taps(a, (c / VLEN) * src_vs + h * a->src_hs, c, taps);
            const tsr_dim_t dst_off = (c / VLEN) * dst_vs + h * a->dst_hs;
            if (!a->common) {
                rw.dst = a->dst + dst_off;
            } else {
                rw.cdst = (char *)a->dst + dst_off * a->common->dt_bytes;
                rw.cc0 = a->common_c0 + c;
            }
            if (k3)
                k3_row(&rw, a, nc, blk);
            else
                row(&rw, a, nc, in_lo, in_hi);
        }
    }
}

void dw_int8_to_f32_avx512(float *dst, const void *src, const float *zp,
                           int64_t n, int src_u8) {
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 k = lane_mask(n - i < VLEN ? n - i : VLEN);
        const __m128i b = _mm_maskz_loadu_epi8(k, (const char *)src + i);
        const __m512i v =
                src_u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
        _mm512_mask_storeu_ps(dst + i, k,
                              _mm512_sub_ps(_mm512_cvtepi32_ps(v),
                                            _mm512_maskz_loadu_ps(k, zp + i)));
    }
}

void dw_int8_row_to_f32_blk16_avx512(float *dst, const void *src,
                                     int64_t src_sw, const float *zp,
                                     int64_t nc, int64_t npts, int src_u8) {
    for (int64_t c = 0; c < nc; c += 16) {
        /* The tail's extra lanes load as 0 and subtract 0. */
        const __mmask16 k = lane_mask(nc - c < VLEN ? nc - c : VLEN);
        const __m512 z = _mm512_maskz_loadu_ps(k, zp + c);
        const char *s = (const char *)src + c;
        float *d = dst + c * npts;
        for (int64_t p = 0; p < npts; p++) {
            const __m128i b = _mm_maskz_loadu_epi8(k, s + p * src_sw);
            const __m512i v =
                    src_u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
            _mm512_storeu_ps(d + p * 16,
                             _mm512_sub_ps(_mm512_cvtepi32_ps(v), z));
        }
    }
}
