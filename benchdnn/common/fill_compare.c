/* Deterministic integer fills and the comparison of results against the
 * reference. */
#include "fill_compare.h"

#include <math.h>
#include <stdio.h>

#define FILL_CHUNK 1024

/* splitmix64: a small, well-mixed generator; one stream per chunk. */
static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void fill_int_values(float *buf, int64_t n, int lo, int hi, double density,
                     uint64_t seed) {
    const int64_t nchunks = (n + FILL_CHUNK - 1) / FILL_CHUNK;
    const uint64_t range = (uint64_t)((int64_t)hi - lo + 1);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (int64_t c = 0; c < nchunks; c++) {
        uint64_t state = seed ^ ((uint64_t)c * 0xd1b54a32d192ed03ull);
        splitmix64(&state); /* decorrelate neighbouring chunks */
        const int64_t end = c * FILL_CHUNK + FILL_CHUNK < n
                                    ? c * FILL_CHUNK + FILL_CHUNK
                                    : n;
        for (int64_t i = c * FILL_CHUNK; i < end; i++) {
            const uint64_t r = splitmix64(&state);
            /* 53 random bits as a uniform double in [0, 1). */
            const double u = (double)(r >> 11) * 0x1.0p-53;
            const uint64_t v = splitmix64(&state);
            buf[i] = u < density ? (float)(lo + (int64_t)(v % range)) : 0.f;
        }
    }
}

/* 1 when got matches expected under cfg's thresholds; fills diffs. */
static int thresholds_match(float exp, float got, const compare_cfg_t *cfg,
                            float *diff, float *rdiff) {
    *diff = fabsf(exp - got);
    *rdiff = exp != 0 ? *diff / fabsf(exp) : *diff;
    if (isnan(exp) || isnan(got))
        return isnan(exp) && isnan(got);
    if (isinf(exp) || isinf(got))
        return exp == got; /* same infinity, same sign */
    return *diff <= cfg->abs_threshold || *rdiff <= cfg->threshold;
}

static int values_match(int64_t idx, float exp, float got,
                        const compare_cfg_t *cfg, float *diff, float *rdiff) {
    return thresholds_match(exp, got, cfg, diff, rdiff) ||
           (cfg->accept && cfg->accept(cfg->accept_ctx, idx, exp, got));
}

static void print_mismatch(int64_t i, float exp, float got, float diff,
                           float rdiff, const compare_cfg_t *cfg) {
    char coords[128] = "";
    if (cfg->idx2str)
        cfg->idx2str(cfg->idx_ctx, i, coords, sizeof(coords));
    printf("[%lld][%s] exp_f32:%g got:%g diff:%g rdiff:%g\n", (long long)i,
           coords, (double)exp, (double)got, (double)diff, (double)rdiff);
}

void compare_f32(const float *expected, const float *got, int64_t n,
                 const compare_cfg_t *cfg, res_t *res) {
    const float zero_trust = cfg->zero_trust > 0 ? cfg->zero_trust : 0.8f;
    const int max_print = cfg->max_print > 0 ? cfg->max_print : 10;
    int64_t errors = 0, zeros = 0;

#pragma omp parallel for reduction(+ : errors, zeros) schedule(static) if (n > 16384)
    for (int64_t i = 0; i < n; i++) {
        float diff, rdiff;
        errors += !values_match(i, expected[i], got[i], cfg, &diff, &rdiff);
        zeros += expected[i] == 0;
    }

    /* The first mismatches, in index order whatever the thread count. */
    int printed = 0;
    for (int64_t i = 0; i < n && errors > 0 && printed < max_print; i++) {
        float diff, rdiff;
        if (values_match(i, expected[i], got[i], cfg, &diff, &rdiff))
            continue;
        print_mismatch(i, expected[i], got[i], diff, rdiff, cfg);
        printed++;
    }

    res->errors = errors;
    res->total = n;
    if (errors > 0)
        res->state = STATE_FAILED;
    else if (n > 0 && (double)zeros > zero_trust * (double)n)
        res->state = STATE_MISTRUSTED;
    else
        res->state = STATE_PASSED;
}
