/* A given by taps, shared by the GEMM engines (f32, s8): the direct form
 * of a convolution, where row m of A is, tap after tap, k_tap values read
 * in place (K = ntaps * k_tap) from a source point, with no im2col.
 *
 * rows() lists for the rows m0 .. m0 + m - 1 (m <= mr) the taps any of
 * them reads, in increasing order, into taps, with each listed tap's mr
 * row pointers into rows (tap i at i * mr): a row in the padding, or past
 * m, points at k_tap zero values. It returns how many taps it listed; taps
 * it leaves out add nothing. */
#ifndef TSR_CPU_GEMM_GEMM_TAPS_H
#define TSR_CPU_GEMM_GEMM_TAPS_H

#include <stdint.h>

#include "common/utils.h"

#define TSR_GEMM_MAX_TAPS 64
typedef int64_t (*tsr_gemm_tap_rows_fn)(const void *ctx, int64_t m0, int64_t m,
                                        int mr, int32_t *taps,
                                        const void **rows);
/* The taps row m reads, as bits (bit t for tap t < 64): what rows()
 * would list for m alone. */
typedef uint64_t (*tsr_gemm_row_taps_fn)(const void *ctx, int64_t m);
typedef struct {
    int64_t ntaps, k_tap;
    tsr_gemm_tap_rows_fn rows;
    const void *ctx;
    /* NULL: row tiles of the kernel's height; else the f32 frame may cut
     * shorter ones where they read fewer taps (gemm_f32.c,
     * taps_tile_heights). */
    tsr_gemm_row_taps_fn row_taps;
} tsr_gemm_taps_t;

/* A by tap offsets, the direct form of a convolution over a zero-padded
 * window of its source, in which the points of a tile are equally spaced
 * (padded points in between compute rows nobody stores): row m, tap t is
 * the k_tap values at byte A + m * lda + off[t] (K = ntaps * k_tap). */
typedef struct {
    int64_t ntaps, k_tap;
    const int64_t *off;
} tsr_gemm_s8_tap_offs_t;

/* The taps listed for each of `tiles` row tiles of up to mr rows in a
 * GEMM's scratch: their count (an int64_t per tile), tap indices (an
 * int32_t per tap) from ids_at, then the row pointers from rows_at;
 * `bytes` in all, for up to ntaps taps. */
typedef struct {
    int64_t ids_at, rows_at, bytes;
} tsr_gemm_taps_table_t;

static inline tsr_gemm_taps_table_t tsr_gemm_taps_table(int mr, int64_t tiles,
                                                        int64_t ntaps) {
    const int64_t n = TSR_MIN(ntaps, TSR_GEMM_MAX_TAPS);
    tsr_gemm_taps_table_t t;
    t.ids_at = tiles * (int64_t)sizeof(int64_t);
    t.rows_at = t.ids_at + tsr_rnd_up(tiles * n * (int64_t)sizeof(int32_t), 64);
    t.bytes = t.rows_at + tiles * n * mr * (int64_t)sizeof(const void *);
    return t;
}

#endif
