/* A by taps for the GEMM tests (gemm_taps.h): row m of an A matrix reads,
 * for tap t, the k_tap values at column t * k_tap, except in the
 * "padding" (tap_in_padding), where it reads zeros (the test's A holds
 * zeros there too, for its reference). */
#ifndef TSR_TESTS_GEMM_TAPS_UTIL_H
#define TSR_TESTS_GEMM_TAPS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/gemm/gemm_taps.h"

typedef struct {
    const char *A;     /* row m at A + m * row_bytes */
    int64_t row_bytes; /* lda in bytes */
    int64_t tap_bytes; /* k_tap in bytes */
    int64_t ntaps;
    const void *zeros; /* k_tap zero values */
    int list_all;      /* 1: taps wholly in the padding listed too */
    /* 0: padding where (m + 2t) % 5 == 0, scattered, so that tiles
     * rarely leave out a tap; else runs of row_run rows alike, padding
     * where (m / row_run + t) % 3 == 0, which the f32 frame cuts its
     * tiles at (with row_taps) */
    int64_t row_run;
} taps_ctx_t;

static inline int tap_in_padding(const taps_ctx_t *c, int64_t m, int64_t t) {
    if (c->row_run > 0)
        return (m / c->row_run + t) % 3 == 0;
    return (m + 2 * t) % 5 == 0;
}

/* tsr_gemm_row_taps_fn over a taps_ctx_t. */
static inline uint64_t row_tap_mask(const void *ctx_, int64_t m) {
    const taps_ctx_t *c = ctx_;
    uint64_t mask = 0;
    for (int64_t t = 0; t < c->ntaps; ++t)
        if (c->list_all || !tap_in_padding(c, m, t))
            mask |= (uint64_t)1 << t;
    return mask;
}

/* tsr_gemm_tap_rows_fn over a taps_ctx_t. */
static inline int64_t list_taps(const void *ctx_, int64_t m0, int64_t m, int mr,
                                int32_t *taps, const void **rows) {
    const taps_ctx_t *c = ctx_;
    int64_t listed = 0;
    for (int64_t t = 0; t < c->ntaps; ++t) {
        const void **row = rows + listed * mr;
        int any = 0;
        for (int i = 0; i < mr; ++i) {
            row[i] = c->zeros;
            if (i < m && !tap_in_padding(c, m0 + i, t)) {
                row[i] = c->A + (m0 + i) * c->row_bytes + t * c->tap_bytes;
                any = 1;
            }
        }
        if (any || c->list_all)
            taps[listed++] = (int32_t)t;
    }
    return listed;
}

#endif
