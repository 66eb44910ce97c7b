/* The f32 depthwise convolution ("dw:f32"): groups == IC == OC, one input
 * and one output channel per group. Its problem configuration, built at pd
 * init, and the row kernel contract shared by the portable and the AVX2
 * kernels.
 *
 * Channels are the vector dim: data is channels-last (nwc, nhwc, ndhwc) or
 * blocked by 8 channels (nCw8c, nChw8c, nCdhw8c), addressed alike as
 * vectors of 8 channels at a vector stride (8 channels-last, the block
 * stride blocked; nChw8c...: f32 "any" with AVX2), or blocked by 16
 * channels (nChw16c...: f32 "any" with AVX-512), whose blocks hold two
 * such vectors at stride 8 and are a block stride apart. Weights are used
 * tap-major with the channel innermost (hwigo-like), taken in place when the
 * user's layout is such, else repacked per execution into the scratchpad.
 *
 * A kernel call computes one output row segment (fixed n, od, oh; ow0 ..
 * ow0 + now) for a range of channels: the caller lists the input rows
 * (id, ih) that the valid (kd, kh) taps read, the kernel walks the width
 * taps, borders (some kw taps in the padding) apart from the interior;
 * or the same segment of a band of output rows whose taps are alike.
 * Every output element sums its taps in the fixed order (kd, kh, kw) from
 * zero, so results do not depend on how work is split. */
#ifndef TSR_CPU_CONV_DW_CONV_F32_H
#define TSR_CPU_CONV_DW_CONV_F32_H

#include <stddef.h>

#include "common/convolution_pd.h"
#include "cpu/common/epilogue_f32.h"

#define DW_VLEN 8
/* Most (kd, kh) rows and (kd, kh, kw) taps a kernel call takes. */
#define DW_MAX_ROWS 64
#define DW_MAX_TAPS 256

/* Strides over the canonical dims n, c, d, h, w (c: of the channel vector,
 * missing spatial dims: 0). */
enum { DW_N = 0, DW_C, DW_D, DW_H, DW_W, DW_NDIMS };

/* Channels the vector kernels take per walk of a row segment's points, so
 * a group's weights and input columns stay in L1 while its points advance;
 * work chunks of more channels are whole groups. */
#define DW_GROUP_C 64

typedef struct {
    int nrows;
    const float *src_row[DW_MAX_ROWS]; /* row (id, ih), iw 0, first channel */
    const float *wei_row[DW_MAX_ROWS]; /* tap (kd, kh, kw 0), first channel */
    tsr_dim_t ow0, now, nc;            /* row segment and channels */
    /* Output rows of the call (a band, see dw_conv_conf_t.row_bands):
     * row h reads src_row[r] + h * src_hs and writes dst + h * dst_hs. */
    tsr_dim_t nh, src_hs, dst_hs;
    /* Problem along w; strides in elements. */
    tsr_dim_t KW, SW, DW, padL, IW;
    tsr_dim_t src_sw, src_cv, wei_sw;
    float *dst; /* (ow0, first channel) */
    tsr_dim_t dst_sw, dst_cv;
    /* 16-channel blocked data: the stride of a block (src_cv, dst_cv: 8),
     * else 0. Only kernels flagged in dw_conv_conf_t.row_blocks16 take
     * it; the others get one call per block with it 0. */
    tsr_dim_t src_bs, dst_bs;
    const float *bias; /* added at the store when set (first channel) */
    /* "dw:s8": the sums (exact integers) stored as s32, for the int8
     * epilogue's one-pass store. */
    int store_s32;
    /* "dw:s8" on the AVX-512 kernel: the epilogue's common store (form
     * common_form into common_dt) fused into the kernel's, or NULL. dst
     * then points at dst's element of that type, the dst strides count
     * such elements, and the call's first channel is common_c0 among the
     * channels of common->f. */
    const tsr_epilogue_common_t *common;
    tsr_data_type_t common_dt;
    int common_form;
    tsr_dim_t common_c0;
} dw_row_args_t;

typedef void (*dw_row_fn)(const dw_row_args_t *a);

void dw_conv_row_avx2(const dw_row_args_t *a);
/* Channels-last data in vectors of 16 channels; blocked data goes to
 * dw_conv_row_avx2. */
void dw_conv_row_avx512(const dw_row_args_t *a);

/* "dw:s8": n int8 values at src (u8 when src_u8, else s8) as f32 minus
 * zp[i] into dst. */
typedef void (*dw_int8_to_f32_fn)(float *dst, const void *src, const float *zp,
                                  int64_t n, int src_u8);
void dw_int8_to_f32_avx2(float *dst, const void *src, const float *zp,
                         int64_t n, int src_u8);
void dw_int8_to_f32_avx512(float *dst, const void *src, const float *zp,
                           int64_t n, int src_u8);
/* "dw:s8": a source row of npts points (src_sw bytes apart) of nc int8
 * channels as f32 minus zp[c], in 16-channel blocks of npts points
 * (channel c of point p at (c / 16) * npts * 16 + p * 16 + c % 16), the
 * last block's extra channels 0. */
void dw_int8_row_to_f32_blk16_avx512(float *dst, const void *src,
                                     int64_t src_sw, const float *zp,
                                     int64_t nc, int64_t npts, int src_u8);

/* A tap (kd, kh, kw) of a call: its input row at the call's first point
 * (before the point's offset along w) and its weights. */
typedef struct {
    const float *src, *wei;
} dw_tap_t;

/* The inputs of a border block of ur points from ow: for tap t (row r,
 * kw) and point u, table[t * ur + u] is the input the tap reads, or
 * `zeros` for a tap in the padding. */
static inline void dw_fill_table(const dw_row_args_t *a, const dw_tap_t *taps,
                                 const float *zeros, tsr_dim_t ow, int ur,
                                 const float **table) {
    for (int r = 0; r < a->nrows; r++)
        for (tsr_dim_t kw = 0; kw < a->KW; kw++) {
            const tsr_dim_t t = r * a->KW + kw;
            for (int u = 0; u < ur; u++) {
                const tsr_dim_t iw0 = (a->ow0 + ow + u) * a->SW - a->padL;
                const tsr_dim_t iw = iw0 + kw * a->DW;
                table[t * ur + u] = iw >= 0 && iw < a->IW
                                            ? taps[t].src + iw0 * a->src_sw
                                            : zeros;
            }
        }
}

/* The points of the call (relative to ow0) whose taps all read inside the
 * input, [*lo, *hi): ow * SW - padL >= 0 and
 * ow * SW - padL + (KW - 1) * DW < IW. */
static inline void dw_interior_points(const dw_row_args_t *a, tsr_dim_t *lo,
                                      tsr_dim_t *hi) {
    const tsr_dim_t last = a->IW - 1 + a->padL - (a->KW - 1) * a->DW;
    const tsr_dim_t l = (a->padL + a->SW - 1) / a->SW - a->ow0;
    const tsr_dim_t h = (last < 0 ? 0 : last / a->SW + 1) - a->ow0;
    *lo = l < 0 ? 0 : l;
    *hi = h > a->now ? a->now : h;
}

/* 1 when the vector kernels take the call's rows in k3 blocks: three
 * undilated taps per row at stride 1 or 2, and points enough for a block
 * (MobileNet's 3x3). */
static inline int dw_k3_rows(const dw_row_args_t *a) {
    return a->KW == 3 && (a->SW == 1 || a->SW == 2) && a->DW == 1 &&
           a->now >= 4;
}

/* Which columns of a k3 block are in the padding: none, the first, the
 * last, both (known at compile time), or any (tested per column). */
enum { K3_INTERIOR, K3_LEFT, K3_RIGHT, K3_LEFT_RIGHT, K3_ANY };

/* The padding columns of a k3 block of ncols input columns from iw0:
 * which kind. */
static inline __attribute__((always_inline)) int
dw_k3_kind(tsr_dim_t iw0, tsr_dim_t ncols, tsr_dim_t IW) {
    const tsr_dim_t lpad = iw0 < 0 ? -iw0 : 0;
    const tsr_dim_t rpad = iw0 + ncols > IW ? iw0 + ncols - IW : 0;
    return lpad == 0 && rpad == 0   ? K3_INTERIOR
           : lpad == 1 && rpad == 0 ? K3_LEFT
           : lpad == 0 && rpad == 1 ? K3_RIGHT
           : lpad == 1 && rpad == 1 ? K3_LEFT_RIGHT
                                    : K3_ANY;
}

/* 1 when column col of a k3 block of kind `border` (ncols columns from
 * input column iw0) lies inside the input; a constant for every kind but
 * K3_ANY once the kernels unroll their columns. */
static inline __attribute__((always_inline)) int
dw_k3_col_inside(int border, int col, int ncols, tsr_dim_t iw0, tsr_dim_t IW) {
    return border == K3_INTERIOR     ? 1
           : border == K3_LEFT       ? col != 0
           : border == K3_RIGHT      ? col != ncols - 1
           : border == K3_LEFT_RIGHT ? col != 0 && col != ncols - 1
                                     : iw0 + col >= 0 && iw0 + col < IW;
}

/* Input rows of a band's group of channels kept in L1 (of 48 KiB) while
 * the group walks down the band. */
#define DW_BAND_L1_BYTES (24 * 1024)

/* The channels a vector kernel takes per walk down a band of blocked
 * rows: as many vectors of vlen channels as keep their input rows (the
 * call's columns of every kernel row) within DW_BAND_L1_BYTES, at least
 * one. */
static inline tsr_dim_t dw_band_group(const dw_row_args_t *a, tsr_dim_t vlen) {
    const tsr_dim_t span = ((a->now - 1) * a->SW + (a->KW - 1) * a->DW + 1) *
                           a->nrows * vlen * (tsr_dim_t)sizeof(float);
    return span > 0 && span < DW_BAND_L1_BYTES
                   ? vlen * (DW_BAND_L1_BYTES / span)
                   : vlen;
}

/* The taps of a call's channel group: tap (r, kw) reads input row r from
 * point kw * DW, at the group's channel offset src_c, and the weights of
 * tap (r, kw) from channel c. */
static inline void dw_set_taps(const dw_row_args_t *a, tsr_dim_t src_c,
                               tsr_dim_t c, dw_tap_t *taps) {
    /* Running pointers: GCC vectorizes products of the indices with
     * vpmullq, a tenth of a whole row's time (14 points, 1 thread). */
    const tsr_dim_t src_step = a->DW * a->src_sw;
    dw_tap_t *t = taps;
    for (int r = 0; r < a->nrows; r++) {
        const float *s = a->src_row[r] + src_c;
        const float *w = a->wei_row[r] + c;
        for (tsr_dim_t kw = 0; kw < a->KW; kw++, t++) {
            t->src = s;
            t->wei = w;
            s += src_step;
            w += a->wei_sw;
        }
    }
}

typedef struct {
    conv_sizes_t sh;
    tsr_dim_t C;          /* channels (groups) */
    tsr_dim_t DD, DH, DW; /* dilated steps (1 + dilation) */

    /* Channel c of a data tensor is at (c / cblk) * s[DW_C] + c % cblk:
     * cblk 8 for channels-last (s[DW_C] 8) and 8-channel blocks, 16 for
     * 16-channel blocks. */
    tsr_dim_t src_s[DW_NDIMS], dst_s[DW_NDIMS];
    tsr_dim_t src_off0, dst_off0;
    int src_cblk, dst_cblk;
    int dst_cl; /* dst channels-last: a point's channels in one run */
    /* Work items walk the output rows of a channel chunk (not the chunks
     * of a row), so a chunk's input rows stay cached between rows:
     * blocked sources, whose rows are contiguous per block. */
    int rows_inner;

    int wei_direct;     /* user weights used in place */
    tsr_dim_t wei_s[4]; /* user strides over g, kd, kh, kw */
    tsr_dim_t wei_off0;
    tsr_dim_t packed_s[4]; /* those of the scratchpad copy, unless direct */

    tsr_dim_t chunk_c, tile_ow; /* work item channels, kernel call width */
    int nthr;
    /* "dw:s8": a u8 or s8 source (src_dt) and s8 weights, both read as f32
     * (the source minus its zero point, src_zp: 0 none, 1 common, 2 per
     * channel), whose sums are exact integers below 2^24. */
    tsr_data_type_t src_dt;
    int src_zp;
    dw_int8_to_f32_fn to_f32;
    /* Scratchpad: repacked weights, then per thread an accumulator tile
     * and, for an int8 source, the rows of a work item as f32. */
    size_t wei_floats, tile_floats, rows_floats;
    /* "dw:s8" rows cached in 16-channel blocks (for the AVX-512 kernel,
     * for the reason "any" is blocked), else channels-last. */
    int cache_blk16;
    dw_row_fn row;
    int row_blocks16; /* row takes src_bs, dst_bs (see dw_row_args_t) */
    /* Calls on blocked sources take bands of output rows
     * (dw_row_args_t.nh), down which the vector kernels walk a group of
     * blocks at a time: the input rows consecutive output rows share
     * stay in L1. Items then span band_h output rows. */
    int row_bands;
    tsr_dim_t band_h;

    tsr_epilogue_t ep;
    int ep_identity, ep_in_kernel, ep_uniform_w;
    /* "dw:s8" into u8, s8 or s32 with a fused plan: the tile's sums go to
     * the epilogue as s32, whose store takes them to dst in one pass. */
    int ep_s32;
    /* "dw:s8" on the AVX-512 kernel, dst channels-last or 16c-blocked,
     * and an epilogue with a common form (tsr_epilogue_common_form): that
     * store runs in the kernel's, with no tile and no second pass. */
    int ep_common_form;
} dw_conv_conf_t;

#endif
