/* What the binary tests share: every algorithm, and each one's naive
 * definition on f32 (comparisons give 1 or 0). */
#ifndef TESTS_BINARY_TEST_UTIL_H
#define TESTS_BINARY_TEST_UTIL_H

#include <math.h>

#include "tessera.h"

static const tsr_alg_kind_t all_algs[] = {
        tsr_binary_add, tsr_binary_sub, tsr_binary_mul, tsr_binary_div,
        tsr_binary_min, tsr_binary_max, tsr_binary_ge,  tsr_binary_gt,
        tsr_binary_le,  tsr_binary_lt,  tsr_binary_eq,  tsr_binary_ne};
#define N_ALGS ((int)(sizeof(all_algs) / sizeof(all_algs[0])))

static inline float naive_alg(tsr_alg_kind_t alg, float a, float b) {
    switch (alg) {
    case tsr_binary_add:
        return a + b;
    case tsr_binary_sub:
        return a - b;
    case tsr_binary_mul:
        return a * b;
    case tsr_binary_div:
        return a / b;
    case tsr_binary_min:
        return a < b ? a : b;
    case tsr_binary_max:
        return a > b ? a : b;
    case tsr_binary_ge:
        return a >= b;
    case tsr_binary_gt:
        return a > b;
    case tsr_binary_le:
        return a <= b;
    case tsr_binary_lt:
        return a < b;
    case tsr_binary_eq:
        return a == b;
    case tsr_binary_ne:
        return a != b;
    default:
        return NAN;
    }
}

#endif
