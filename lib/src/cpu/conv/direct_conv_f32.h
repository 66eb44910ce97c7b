/* The direct f32 convolution ("direct:f32") for channel-blocked layouts:
 * its problem configuration, built at pd init, and the register-blocked
 * micro-kernel contract its portable C and AVX2 kernels share.
 *
 * Channels are handled in vectors of 8: the source is read in chunks of 8
 * input channels, the weights as 8 contiguous output channels per (input
 * channel, kernel tap), so blocked layouts with blocks of 8 or 16 (nChw8c,
 * nChw16c, OIhw8i8o, OIhw16i16o, Ohwi8o...) all fit the same kernel. A
 * tile is ur output pixels along w by nv output-channel vectors held in
 * registers while the kernel runs over the input-channel chunks, the
 * kernel taps (kd, kh, kw) and the channels of a chunk: per input channel
 * one broadcast of a source value per pixel and one FMA per accumulator.
 * Accumulators live in a per-thread buffer of the work item's output rows
 * (layout [row][vector][ow][8]) between chunk groups, and the shared
 * epilogue stores the finished rows. */
#ifndef TSR_CPU_CONV_DIRECT_CONV_F32_H
#define TSR_CPU_CONV_DIRECT_CONV_F32_H

#include <stdint.h>

#include "common/convolution_pd.h"
#include "cpu/common/epilogue_f32.h"

#define DIRECT_VLEN 8
#define DIRECT_MAX_NV 4
#define DIRECT_MAX_UR 8
#define DIRECT_FIRST_MAX_IC 4
/* Independent accumulators needed to hide the FMA latency. */
#define DIRECT_MIN_ACC 8

/* Pixels per tile for nv channel vectors: as many accumulators as fit in
 * 16 vector registers next to the broadcasts and weights. */
static inline int direct_conv_ur(int nv) {
    static const int ur[DIRECT_MAX_NV + 1] = {0, 8, 6, 4, 3};
    return ur[nv];
}

typedef struct {
    conv_sizes_t sh;
    /* Element steps of the source between taps (dilation included),
     * between consecutive output pixels (stride included), and between
     * the channels of a chunk. */
    tsr_dim_t src_kd, src_kh, src_kw, src_pix, src_ic;
    tsr_dim_t src_n, src_d, src_h, src_w;
    /* Weights: steps between taps and input channels of a chunk, group. */
    tsr_dim_t wei_kd, wei_kh, wei_kw, wei_ic, wei_g;
    /* Destination: steps, and between the channels of a vector. */
    tsr_dim_t dst_n, dst_d, dst_h, dst_w, dst_c;

    tsr_dim_t nchunks;     /* input-channel chunks of 8 per group */
    int last_ic;           /* channels in the last chunk, 1..8 */
    tsr_dim_t nvec;        /* output-channel vectors of 8 per group */
    tsr_dim_t nvg;         /* work groups of up to DIRECT_MAX_NV vectors */
    tsr_dim_t chunk_group; /* chunks per pass over a row (weights in L1) */
    tsr_dim_t kh_block;    /* kernel rows per pass */

    /* Element offsets (offset0 included for data): source chunk c of
     * group g at src_chunk_off[g * nchunks + c], dst vector v of group g
     * at dst_vec_off[g * nvec + v], weights chunk c and vector v within a
     * group at wei_chunk_off[c] + wei_vec_off[v] + wei_off0. */
    tsr_dim_t *src_chunk_off, *dst_vec_off, *wei_chunk_off, *wei_vec_off;
    tsr_dim_t wei_off0;
    /* Padded dst channels [OC, dst_pad_oc) are written as zeros. */
    tsr_dim_t dst_pad_oc;
    tsr_memory_desc_t dst_md;

    int use_avx2;
    /* One chunk of at most DIRECT_FIRST_MAX_IC channels whose weights are
     * DIRECT_VLEN apart (a first layer): direct_conv_first_tile_avx2. */
    int first_layer;
    int nthr;
    tsr_dim_t row_floats; /* one row's accumulators */
    tsr_dim_t rows;       /* output rows per work item */

    tsr_epilogue_t ep;
    int ep_uniform_w; /* one epilogue call covers a whole row of pixels */
    /* The tiles keep their sums in dst itself (partial ones between
     * passes) and add the bias to the finished ones: for an epilogue of at
     * most a bias and dst vectors dst_vec_step apart with contiguous
     * channels and no padding. No row buffer, no epilogue pass. */
    int store_in_kernel;
    tsr_dim_t dst_vec_step;
} direct_conv_conf_t;

/* A run of `ntiles` tiles of ur pixels each along w. `src` and `wei`
 * point at the first valid tap of the first pixel and output-channel
 * vector 0, without the input-channel offset: chunk k is at
 * + src_chunk[k] / + wei_chunk[k]. `acc` is the first pixel of vector 0 in
 * the row buffer (or in dst), pixels acc_pix and vectors acc_vec apart.
 * With `bias` (8 values per vector, contiguous) the tile adds it to the
 * finished sums before storing them. */
typedef struct {
    const float *src, *wei;
    float *acc;
    const tsr_dim_t *src_chunk, *wei_chunk;
    tsr_dim_t nchunks, ntiles;
    int last_ic; /* channels in the tile's last chunk, 1..8 */
    tsr_dim_t kd_n, kh_n, kw_n;
    tsr_dim_t wei_vec[DIRECT_MAX_NV]; /* vector v relative to vector 0 */
    tsr_dim_t acc_pix, acc_vec;
    const float *bias;
    int zero; /* start from 0 instead of acc */
} direct_tile_t;

typedef void (*direct_tile_fn)(const direct_conv_conf_t *cf,
                               const direct_tile_t *t, int ur, int nv);

/* Calls fn(cf, t, UR, NV) with compile-time constants for every tile
 * shape, so each kernel body is specialized with its accumulators in
 * registers. */
#define DIRECT_TILE_CASE(fn, U, V)                                             \
    case (V)*16 + (U):                                                         \
        fn(cf, t, U, V);                                                       \
        return;
#define DIRECT_TILE_DISPATCH(fn, ur, nv)                                       \
    switch ((nv)*16 + (ur)) {                                                  \
        DIRECT_TILE_CASE(fn, 1, 1)                                             \
        DIRECT_TILE_CASE(fn, 2, 1)                                             \
        DIRECT_TILE_CASE(fn, 3, 1)                                             \
        DIRECT_TILE_CASE(fn, 4, 1)                                             \
        DIRECT_TILE_CASE(fn, 5, 1)                                             \
        DIRECT_TILE_CASE(fn, 6, 1)                                             \
        DIRECT_TILE_CASE(fn, 7, 1)                                             \
        DIRECT_TILE_CASE(fn, 8, 1)                                             \
        DIRECT_TILE_CASE(fn, 1, 2)                                             \
        DIRECT_TILE_CASE(fn, 2, 2)                                             \
        DIRECT_TILE_CASE(fn, 3, 2)                                             \
        DIRECT_TILE_CASE(fn, 4, 2)                                             \
        DIRECT_TILE_CASE(fn, 5, 2)                                             \
        DIRECT_TILE_CASE(fn, 6, 2)                                             \
        DIRECT_TILE_CASE(fn, 1, 3)                                             \
        DIRECT_TILE_CASE(fn, 2, 3)                                             \
        DIRECT_TILE_CASE(fn, 3, 3)                                             \
        DIRECT_TILE_CASE(fn, 4, 3)                                             \
        DIRECT_TILE_CASE(fn, 1, 4)                                             \
        DIRECT_TILE_CASE(fn, 2, 4)                                             \
        DIRECT_TILE_CASE(fn, 3, 4)                                             \
    default:                                                                   \
        return;                                                                \
    }

/* The kernels: ur in 1..direct_conv_ur(nv), nv in 1..DIRECT_MAX_NV. */
void direct_conv_tile_c(const direct_conv_conf_t *cf, const direct_tile_t *t,
                        int ur, int nv);
void direct_conv_tile_avx2(const direct_conv_conf_t *cf, const direct_tile_t *t,
                           int ur, int nv);
/* The same for first layers (cf->first_layer): channels of the chunk as a
 * compile-time count. */
void direct_conv_first_tile_avx2(const direct_conv_conf_t *cf,
                                 const direct_tile_t *t, int ur, int nv);

#endif
