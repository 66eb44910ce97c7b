/* Deterministic fills and the comparison against the reference. */
#ifndef BENCHDNN_COMMON_FILL_COMPARE_H
#define BENCHDNN_COMMON_FILL_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "benchdnn.h"
#include "tessera.h"

/* Fills n floats with integers in [lo, hi]; a fraction `density` (0..1] of
 * points is non-zero, the rest 0. Seeded per 1024-element chunk from
 * `seed`, so the result does not depend on the thread count. */
void fill_int_values(float *buf, int64_t n, int lo, int hi, double density,
                     uint64_t seed);

/* The arguments of one fill_int_values call. */
typedef struct {
    int lo, hi;     /* integer fill range */
    double density; /* fraction of non-zero points */
    uint64_t seed;
} fill_rule_t;

/* Prints the logical coordinates of element `idx` into buf. */
typedef void (*idx2str_fn)(const void *ctx, int64_t idx, char *buf, size_t len);

typedef struct {
    tsr_data_type_t dt;  /* destination type */
    float threshold;     /* relative diff allowed (0: exact) */
    float abs_threshold; /* absolute diff always allowed (0: none) */
    /* More than this fraction of zeros in the reference makes the result
     * MISTRUSTED (default 0.8 when 0). */
    float zero_trust;
    idx2str_fn idx2str;
    const void *idx_ctx;
    int max_print; /* mismatches printed (default 10 when 0) */
    /* A driver's rule for a point the thresholds reject (NULL: none): 1
     * accepts it. Called with accept_ctx and the point's dense index. */
    int (*accept)(const void *ctx, int64_t idx, float exp, float got);
    const void *accept_ctx;
} compare_cfg_t;

/* Compares got against expected (both dense f32, n points) and fills
 * res->errors, res->total and res->state (PASSED, FAILED or MISTRUSTED).
 * NaN equals NaN, infinities equal when the same sign; then cfg->accept
 * decides. Failures print
 * "[IDX][COORDS] exp_f32:E got:G diff:D rdiff:R" lines. */
void compare_f32(const float *expected, const float *got, int64_t n,
                 const compare_cfg_t *cfg, res_t *res);

#endif
