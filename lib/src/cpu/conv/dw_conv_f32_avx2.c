/* The AVX2/FMA row kernel of "dw:f32" (contract in dw_conv_f32.h).
 *
 * Channels go in groups of GROUP_C (all of them in stride-2 k3 rows, see
 * dw_conv_row_avx2) with the points of the row inner, so a
 * group's weights and input columns stay in L1 while its points advance;
 * a channel tail is a masked vector. A block of output points times
 * channel vectors is accumulated in registers over every tap, from zero,
 * in the order (kd, kh, kw); a block computed twice (see below) gives the
 * same values.
 *
 * 3-tap rows at stride 1 or 2 (MobileNet's 3x3) take the k3 blocks: each
 * input column is loaded once and feeds every point it is a tap of, the
 * row's weights in registers; padding columns are zeros known at compile
 * time for the usual one-column borders. Other problems take the
 * general blocks of 6, 3, 2 or 1 points (fewer points, more channel
 * vectors), the taps listed once as (input, weights) pointer pairs so a
 * block is one flat loop of FMAs. Interior blocks (every tap of every
 * point inside the input) address their points by a stride; channels-last
 * border blocks read taps in the padding as zeros (through a per (tap,
 * point) pointer table, or a zero column in k3 blocks), which adds exact
 * zeros for finite weights; blocked data computes border points one at a
 * time over their valid kw taps. Channels-last data (channel vectors 8
 * floats apart) gets its own instances with that stride fixed, which
 * frees registers. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/common/lane_mask_avx2.h"
#include "cpu/conv/dw_conv_f32.h"

#define UR 6
#define GROUP_C DW_GROUP_C
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* Loops over registers (points, vectors, taps of a column) must unroll
 * fully for the accumulators to stay in registers. */
#define UNROLL _Pragma("GCC unroll 32")

/* What border blocks read for taps in the padding. */
static const float zeros[GROUP_C];

typedef dw_tap_t tap_t;

/* How a block reads its inputs. */
enum { INTERIOR, TABLE, KW_RANGE };

/* The call's state in locals the compiler can keep in registers. */
typedef struct {
    const tap_t *taps; /* nrows x KW, row-major */
    int nrows;
    tsr_dim_t KW, SW, padL, ow0;
    tsr_dim_t src_sw, src_cv, dst_sw, dst_cv;
    float *dst;
    const float *bias;
    const float **table; /* TABLE blocks: input of (tap t, point u) at
                            t * ur + u */
    int s32;             /* store_s32 */
    /* k3 blocks walk nh output rows down a band (dw_row_args_t.nh): row h
     * reads the taps' inputs h * src_hs further and stores h * dst_hs
     * further. The general blocks take one row (nh 1). */
    tsr_dim_t nh, src_hs, dst_hs;
} row_t;

/* Channel vectors of one pass: element offsets of the first one. */
typedef struct {
    tsr_dim_t src, dst, wei;
} cvec_t;

static ALWAYS_INLINE __m256 load(const float *p, int masked, __m256i mask) {
    return masked ? _mm256_maskload_ps(p, mask) : _mm256_loadu_ps(p);
}

/* Keeps a loaded vector in its register: without this GCC folds the load
 * into every FMA that uses it, loading an input column once per tap
 * instead of once. */
static ALWAYS_INLINE void in_register(__m256 *x) {
    __asm__("" : "+v"(*x));
}

static ALWAYS_INLINE const float *at(const float *p, intptr_t bytes) {
    return (const float *)((const char *)p + bytes);
}

/* Stores the ur x nv accumulators of a block at output point ow, dst_h
 * elements into dst (bias added first when the row has one); channel
 * vectors dcv apart. */
static ALWAYS_INLINE void store_points(const row_t *rw, const cvec_t *cv,
                                       __m256 *acc, const int nv,
                                       const int masked, __m256i mask,
                                       tsr_dim_t ow, const int ur,
                                       tsr_dim_t dcv, tsr_dim_t dst_h) {
    /* In locals: vector stores may alias anything, *rw included. */
    const tsr_dim_t dsw = rw->dst_sw;
    const float *bias = rw->bias;
    const int s32 = rw->s32;
    float *d0 = rw->dst + dst_h + ow * dsw + cv->dst;
    UNROLL
    for (int v = 0; v < nv; v++) {
        const int m = masked && v == nv - 1;
        if (bias) {
            const __m256 b = load(bias + cv->wei + v * DW_VLEN, m, mask);
            UNROLL
            for (int u = 0; u < ur; u++)
                acc[u * nv + v] = _mm256_add_ps(acc[u * nv + v], b);
        }
        UNROLL
        for (int u = 0; u < ur; u++) {
            float *d = d0 + u * dsw + v * dcv;
            if (s32) {
                const __m256i x = _mm256_cvttps_epi32(acc[u * nv + v]);
                if (m)
                    _mm256_maskstore_epi32((int *)d, mask, x);
                else
                    _mm256_storeu_si256((__m256i *)d, x);
            } else if (m) {
                _mm256_maskstore_ps(d, mask, acc[u * nv + v]);
            } else {
                _mm256_storeu_ps(d, acc[u * nv + v]);
            }
        }
    }
}

/* `ur` points from ow (relative to ow0), `nv` channel vectors (the last
 * masked when `masked`); `cl`: channel vectors DW_VLEN apart. KW_RANGE
 * blocks (ur 1) take the kw taps [kw_lo, kw_hi) of every row. */
static ALWAYS_INLINE void points(const row_t *rw, const cvec_t *cv,
                                 const int nv, const int masked, __m256i mask,
                                 const int cl, tsr_dim_t ow, const int ur,
                                 const int kind, tsr_dim_t kw_lo,
                                 tsr_dim_t kw_hi) {
    __m256 acc[12];
    UNROLL
    for (int i = 0; i < ur * nv; i++)
        acc[i] = _mm256_setzero_ps();
    const tsr_dim_t scv = cl ? DW_VLEN : rw->src_cv;
    /* Points 0..2 from p0, 3..5 from p3: x86 addressing scales the stride
     * by 1 or 2. */
    const intptr_t pt =
            (intptr_t)(rw->SW * rw->src_sw * (tsr_dim_t)sizeof(float));
    const tsr_dim_t off =
            ((rw->ow0 + ow) * rw->SW - rw->padL) * rw->src_sw + cv->src;
    /* Every kw tap: the taps of all rows are one run. */
    const int nrows = kind == KW_RANGE ? rw->nrows : 1;
    const tsr_dim_t lo = kind == KW_RANGE ? kw_lo : 0;
    const tsr_dim_t hi = kind == KW_RANGE ? kw_hi : rw->nrows * rw->KW;
    for (int r = 0; r < nrows; r++) {
        const tap_t *t = rw->taps + r * rw->KW;
        for (tsr_dim_t k = lo; k < hi; k++) {
            const float *p0 = t[k].src + off;
            const float *p3 = at(p0, 3 * pt);
            const float *w = t[k].wei + cv->wei;
            __m256 wv[8];
            UNROLL
            for (int v = 0; v < nv; v++)
                wv[v] = load(w + v * DW_VLEN, masked && v == nv - 1, mask);
            UNROLL
            for (int u = 0; u < ur; u++) {
                const float *p;
                if (kind == TABLE)
                    p = rw->table[k * ur + u] + cv->src;
                else
                    p = u < 3 ? at(p0, u * pt) : at(p3, (u - 3) * pt);
                UNROLL
                for (int v = 0; v < nv; v++)
                    acc[u * nv + v] = _mm256_fmadd_ps(
                            load(p + v * scv, masked && v == nv - 1, mask),
                            wv[v], acc[u * nv + v]);
            }
        }
    }
    store_points(rw, cv, acc, nv, masked, mask, ow, ur,
                 cl ? DW_VLEN : rw->dst_cv, 0);
}

/* Vectors j .. j + nv of the group. */
static ALWAYS_INLINE void at_vector(const row_t *rw, cvec_t *cv, tsr_dim_t j,
                                    const int cl) {
    cv->src = j * (cl ? DW_VLEN : rw->src_cv);
    cv->dst = j * (cl ? DW_VLEN : rw->dst_cv);
    cv->wei = j * DW_VLEN;
}

/* One block of points for every channel of the group: runs of NV full
 * vectors, then fewer, then a masked tail. */
static ALWAYS_INLINE void block(const row_t *rw, tsr_dim_t nc, const int cl,
                                tsr_dim_t ow, const int ur, const int NV,
                                const int kind, tsr_dim_t kw_lo,
                                tsr_dim_t kw_hi) {
    const tsr_dim_t nfull = nc / DW_VLEN, tail = nc % DW_VLEN;
    const __m256i none = _mm256_setzero_si256();
    cvec_t cv;
    tsr_dim_t j = 0;
    for (; j + NV <= nfull; j += NV) {
        at_vector(rw, &cv, j, cl);
        points(rw, &cv, NV, 0, none, cl, ow, ur, kind, kw_lo, kw_hi);
    }
    if (NV > 4 && j + 4 <= nfull) {
        at_vector(rw, &cv, j, cl);
        points(rw, &cv, 4, 0, none, cl, ow, ur, kind, kw_lo, kw_hi);
        j += 4;
    }
    if (NV > 2 && j + 2 <= nfull) {
        at_vector(rw, &cv, j, cl);
        points(rw, &cv, 2, 0, none, cl, ow, ur, kind, kw_lo, kw_hi);
        j += 2;
    }
    if (NV > 1 && j < nfull) {
        at_vector(rw, &cv, j, cl);
        points(rw, &cv, 1, 0, none, cl, ow, ur, kind, kw_lo, kw_hi);
        j++;
    }
    if (tail) {
        at_vector(rw, &cv, j, cl);
        const __m256i mask = tsr_lane_mask_avx2(tail);
        points(rw, &cv, 1, 1, mask, cl, ow, ur, kind, kw_lo, kw_hi);
    }
}

/* A block of `ur` points (6, 3, 2 or 1) with the channel vectors that fit
 * the registers next to them. */
static ALWAYS_INLINE void block_of(const row_t *rw, tsr_dim_t nc, const int cl,
                                   tsr_dim_t ow, int ur, const int kind) {
    switch (ur) {
    case UR:
        block(rw, nc, cl, ow, UR, 2, kind, 0, 0);
        break;
    case 3:
        block(rw, nc, cl, ow, 3, 4, kind, 0, 0);
        break;
    case 2:
        block(rw, nc, cl, ow, 2, 6, kind, 0, 0);
        break;
    default:
        block(rw, nc, cl, ow, 1, 8, kind, 0, 0);
        break;
    }
}

/* The row segment for one channel group. */
static ALWAYS_INLINE void row(const row_t *rw, const dw_row_args_t *a,
                              tsr_dim_t nc, const int cl, tsr_dim_t in_lo,
                              tsr_dim_t in_hi) {
    tsr_dim_t ow = 0;
    while (ow < a->now) {
        const tsr_dim_t rem = a->now - ow;
        int ur = rem >= UR ? UR : rem >= 3 ? 3 : rem >= 2 ? 2 : 1;
        if (ow >= in_lo && ow + ur <= in_hi) {
            block_of(rw, nc, cl, ow, ur, INTERIOR);
        } else if (cl) {
            dw_fill_table(a, rw->taps, zeros, ow, ur, rw->table);
            block_of(rw, nc, cl, ow, ur, TABLE);
        } else {
            const tsr_dim_t iw0 = (a->ow0 + ow) * a->SW - a->padL;
            tsr_dim_t lo, hi;
            conv_inside_taps(iw0, a->DW, a->KW, a->IW, &lo, &hi);
            block(rw, nc, cl, ow, 1, 8, KW_RANGE, lo, hi);
            ur = 1;
        }
        ow += ur;
    }
}

/* Rows of 3 taps at stride `sw` 1 or 2 and no dilation (3x3 stride 1 or
 * 2): each input column of a block is loaded once and feeds every point it
 * is a tap of, the row's 3 weights vectors in registers, so a tap costs
 * half a load or less. Columns in the padding read as zeros. Per point the
 * taps still add in the order (row, kw). */
static ALWAYS_INLINE void k3_points(const row_t *rw, const cvec_t *cv,
                                    const int nv, const int masked,
                                    __m256i mask, tsr_dim_t ow, const int ur,
                                    const int sw, const int border,
                                    tsr_dim_t IW, const int cl, const int nr) {
    const tsr_dim_t scv = cl ? DW_VLEN : rw->src_cv;
    const tsr_dim_t iw0 = (rw->ow0 + ow) * sw - rw->padL;
    const int nrows = nr ? nr : rw->nrows;
    for (tsr_dim_t h = 0; h < rw->nh; h++) {
        __m256 acc[8];
        UNROLL
        for (int i = 0; i < ur * nv; i++)
            acc[i] = _mm256_setzero_ps();
        for (int r = 0; r < nrows; r++) {
            const tap_t *t = rw->taps + r * 3;
            __m256 w[3][2];
            UNROLL
            for (int kw = 0; kw < 3; kw++)
                UNROLL
            for (int v = 0; v < nv; v++) {
                w[kw][v] = load(t[kw].wei + cv->wei + v * DW_VLEN,
                                masked && v == nv - 1, mask);
                in_register(&w[kw][v]);
            }
            /* Column col at base[col / 4] + (col % 4) * sb: x86 addressing
             * scales sb by 1 or 2, 3 * sb is one more register. */
            const float *base[5];
            const intptr_t sb =
                    (intptr_t)(rw->src_sw * (tsr_dim_t)sizeof(float));
            base[0] = t[0].src + h * rw->src_hs + iw0 * rw->src_sw + cv->src;
            UNROLL
            for (int b = 1; b < 5; b++)
                base[b] = at(base[b - 1], 4 * sb);
            UNROLL
            for (int col = 0; col < (ur - 1) * sw + 3; col++) {
                const int ncols = (ur - 1) * sw + 3;
                const int valid = dw_k3_col_inside(border, col, ncols, iw0, IW);
                const float *p = at(base[col / 4], (col % 4) * sb);
                UNROLL
                for (int v = 0; v < nv; v++) {
                    __m256 x = valid ? load(p + v * scv, masked && v == nv - 1,
                                            mask)
                                     : _mm256_setzero_ps();
                    in_register(&x);
                    UNROLL
                    for (int kw = 0; kw < 3; kw++) {
                        const int u = (col - kw) / sw;
                        if (col >= kw && (col - kw) % sw == 0 && u < ur)
                            acc[u * nv + v] = _mm256_fmadd_ps(x, w[kw][v],
                                                              acc[u * nv + v]);
                    }
                }
            }
        }
        store_points(rw, cv, acc, nv, masked, mask, ow, ur,
                     cl ? DW_VLEN : rw->dst_cv, h * rw->dst_hs);
    }
}

static ALWAYS_INLINE void k3_block(const row_t *rw, tsr_dim_t nc, tsr_dim_t ow,
                                   const int ur, const int NV, const int sw,
                                   const int border, tsr_dim_t IW, const int cl,
                                   const int nr) {
    const tsr_dim_t nfull = nc / DW_VLEN, tail = nc % DW_VLEN;
    const __m256i none = _mm256_setzero_si256();
    cvec_t cv;
    tsr_dim_t j = 0;
    for (; j + NV <= nfull; j += NV) {
        at_vector(rw, &cv, j, cl);
        k3_points(rw, &cv, NV, 0, none, ow, ur, sw, border, IW, cl, nr);
    }
    if (NV > 1 && j < nfull) {
        at_vector(rw, &cv, j, cl);
        k3_points(rw, &cv, 1, 0, none, ow, ur, sw, border, IW, cl, nr);
        j++;
    }
    if (tail) {
        at_vector(rw, &cv, j, cl);
        const __m256i mask = tsr_lane_mask_avx2(tail);
        k3_points(rw, &cv, 1, 1, mask, ow, ur, sw, border, IW, cl, nr);
    }
}

/* A stride-2 block of `ur` points that ends a row: interior, or with its
 * padding columns tested one by one (once a row, not worth an instance
 * per border). */
static ALWAYS_INLINE void k3_tail_ur(const row_t *rw, const dw_row_args_t *a,
                                     tsr_dim_t nc, tsr_dim_t ow, const int ur,
                                     const int cl, const int nr) {
    const tsr_dim_t iw0 = (a->ow0 + ow) * 2 - a->padL;
    if (iw0 >= 0 && iw0 + (ur - 1) * 2 + 3 <= a->IW)
        k3_block(rw, nc, ow, ur, 2, 2, K3_INTERIOR, a->IW, cl, nr);
    else
        k3_block(rw, nc, ow, ur, 2, 2, K3_ANY, a->IW, cl, nr);
}

/* The stride-2 last block of 3 or 2 points; its instances are out of the
 * row function, where they would change how the compiler allocates the
 * registers of the hot blocks. */
static __attribute__((noinline)) void k3_tail(const row_t *rw,
                                              const dw_row_args_t *a,
                                              tsr_dim_t nc, tsr_dim_t ow,
                                              int ur, int cl, int nr) {
    if (ur == 3 && cl && nr == 3)
        k3_tail_ur(rw, a, nc, ow, 3, 1, 3);
    else if (ur == 3 && cl)
        k3_tail_ur(rw, a, nc, ow, 3, 1, 0);
    else if (ur == 3)
        k3_tail_ur(rw, a, nc, ow, 3, 0, 0);
    else if (cl && nr == 3)
        k3_tail_ur(rw, a, nc, ow, 2, 1, 3);
    else if (cl)
        k3_tail_ur(rw, a, nc, ow, 2, 1, 0);
    else
        k3_tail_ur(rw, a, nc, ow, 2, 0, 0);
}

/* The row segment (at least 4 points) in blocks of 8 or 7 points (4 with
 * two channel vectors at stride 2 or when shorter). At stride 1 the last
 * block overlaps the one before rather than being narrower (its points
 * are computed again, equally); at stride 2 it is narrower, 3 or 2 points
 * (overlapping by one when one is left). Which columns of a block fall in
 * the padding is decided per block and dispatched to an instance where it
 * is a constant. */
static ALWAYS_INLINE void k3_row_sw(const row_t *rw, const dw_row_args_t *a,
                                    tsr_dim_t nc, const int sw, const int cl,
                                    const int nr) {
    /* Stride 2 reads two columns a point: pairs of vectors use whole
     * cache lines of channels-last data there, and a point computed twice
     * costs two columns. At stride 1, blocks that tile the row exactly
     * (MobileNet's widths are 7 * 2^k) waste no overlap. */
    const tsr_dim_t now = a->now;
    const int ur = sw == 2        ? 4
                   : now % 8 == 0 ? 8
                   : now % 7 == 0 ? 7
                   : now >= 8     ? 8
                                  : 4;
    const tsr_dim_t ncols = (ur - 1) * sw + 3;
    const tsr_dim_t end = sw == 2 ? now - now % ur : now;
    for (tsr_dim_t ow0 = 0; ow0 < end; ow0 += ur) {
        const tsr_dim_t ow = ow0 + ur > a->now ? a->now - ur : ow0;
        const tsr_dim_t iw0 = (a->ow0 + ow) * sw - a->padL;
        const int kind = dw_k3_kind(iw0, ncols, a->IW);
#define K3_KINDS(UR, NV)                                                       \
    switch (kind) {                                                            \
    case K3_INTERIOR:                                                          \
        k3_block(rw, nc, ow, UR, NV, sw, K3_INTERIOR, a->IW, cl, nr);          \
        break;                                                                 \
    case K3_LEFT:                                                              \
        k3_block(rw, nc, ow, UR, NV, sw, K3_LEFT, a->IW, cl, nr);              \
        break;                                                                 \
    case K3_RIGHT:                                                             \
        k3_block(rw, nc, ow, UR, NV, sw, K3_RIGHT, a->IW, cl, nr);             \
        break;                                                                 \
    case K3_LEFT_RIGHT:                                                        \
        k3_block(rw, nc, ow, UR, NV, sw, K3_LEFT_RIGHT, a->IW, cl, nr);        \
        break;                                                                 \
    default:                                                                   \
        k3_block(rw, nc, ow, UR, NV, sw, K3_ANY, a->IW, cl, nr);               \
        break;                                                                 \
    }
        if (ur == 8) {
            K3_KINDS(8, 1)
        } else if (ur == 7) {
            K3_KINDS(7, 1)
        } else {
            K3_KINDS(4, 2)
        }
#undef K3_KINDS
    }
    if (now - end == 3)
        k3_tail(rw, a, nc, end, 3, cl, nr);
    else if (end < now)
        k3_tail(rw, a, nc, now - 2, 2, cl, nr);
}

static void k3_row(const row_t *rw, const dw_row_args_t *a, tsr_dim_t nc,
                   const int cl) {
    /* Rows of 3 (kh) taps, fixed: the row loop unrolls. */
    const int nr3 = rw->nrows == 3;
    if (cl && nr3) {
        if (a->SW == 1)
            k3_row_sw(rw, a, nc, 1, 1, 3);
        else
            k3_row_sw(rw, a, nc, 2, 1, 3);
    } else if (cl) {
        if (a->SW == 1)
            k3_row_sw(rw, a, nc, 1, 1, 0);
        else
            k3_row_sw(rw, a, nc, 2, 1, 0);
    } else {
        if (a->SW == 1)
            k3_row_sw(rw, a, nc, 1, 0, 0);
        else
            k3_row_sw(rw, a, nc, 2, 0, 0);
    }
}

void dw_conv_row_avx2(const dw_row_args_t *a) {
    tap_t taps[DW_MAX_TAPS];
    const float *table[DW_MAX_TAPS * UR];
    const int k3 = dw_k3_rows(a);
    /* k3 blocks walk the call's band of rows themselves (row_t.nh), as
     * in the AVX-512 kernel. */
    row_t rw = {taps,      a->nrows,  a->KW,     a->SW,        a->padL,
                a->ow0,    a->src_sw, a->src_cv, a->dst_sw,    a->dst_cv,
                a->dst,    a->bias,   table,     a->store_s32, k3 ? a->nh : 1,
                a->src_hs, a->dst_hs};
    tsr_dim_t in_lo, in_hi;
    dw_interior_points(a, &in_lo, &in_hi);
    const int cl = a->src_cv == DW_VLEN && a->dst_cv == DW_VLEN;
    /* Stride-2 k3 rows walk every channel of the call at each block of
     * points: a block's columns are then one contiguous run per input row,
     * and the per-group setup runs once (MobileNet's 128- to 512-channel
     * stride-2 layers: +10% on one thread). */
    /* Bands of blocked k3 rows: groups that keep their input rows in L1
     * down the band. */
    const tsr_dim_t group = k3 && a->nh > 1 && !cl ? dw_band_group(a, DW_VLEN)
                            : k3 && a->SW == 2     ? a->nc
                                                   : GROUP_C;
    for (tsr_dim_t c = 0; c < a->nc; c += group) {
        const tsr_dim_t nc = a->nc - c < group ? a->nc - c : group;
        rw.bias = a->bias ? a->bias + c : NULL;
        for (tsr_dim_t h = 0; h < a->nh; h += rw.nh) {
            /* The group's first channel folded into every pointer, so
             * the vector offsets inside it are constants. */
            dw_set_taps(a, (c / DW_VLEN) * a->src_cv + h * a->src_hs, c, taps);
            rw.dst = a->dst + (c / DW_VLEN) * a->dst_cv + h * a->dst_hs;
            if (k3)
                k3_row(&rw, a, nc, cl);
            else if (cl)
                row(&rw, a, nc, 1, in_lo, in_hi);
            else
                row(&rw, a, nc, 0, in_lo, in_hi);
        }
    }
}

void dw_int8_to_f32_avx2(float *dst, const void *src, const float *zp,
                         int64_t n, int src_u8) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i b =
                _mm_loadl_epi64((const __m128i *)((const char *)src + i));
        const __m256i v =
                src_u8 ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
        _mm256_storeu_ps(dst + i, _mm256_sub_ps(_mm256_cvtepi32_ps(v),
                                                _mm256_loadu_ps(zp + i)));
    }
    for (; i < n; i++)
        dst[i] = (src_u8 ? (float)((const uint8_t *)src)[i]
                         : (float)((const int8_t *)src)[i]) -
                 zp[i];
}
