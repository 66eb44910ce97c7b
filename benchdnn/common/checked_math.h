/* Overflow-checked size arithmetic for the harness: every product of
 * user-given sizes goes through these, so an overflow becomes a problem
 * state with a reason, never undefined behaviour or a wrong message.
 * The inline helpers return 1 and write the result when it fits, 0 (and
 * write nothing) when it does not. */
#ifndef BENCHDNN_COMMON_CHECKED_MATH_H
#define BENCHDNN_COMMON_CHECKED_MATH_H

#include <stddef.h>
#include <stdint.h>

#include "common/benchdnn.h"

static inline int bench_mul_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int bench_add_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int bench_sub_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int bench_mul_size(size_t a, size_t b, size_t *out) {
    size_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

/* a + b, SIZE_MAX when that overflows. */
static inline size_t bench_add_size_sat(size_t a, size_t b) {
    size_t r;
    return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

/* The product of v[0..n) (1 for n == 0). */
static inline int bench_prod_i64(const int64_t *v, int n, int64_t *out) {
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (!bench_mul_i64(p, v[i], &p))
            return 0;
    *out = p;
    return 1;
}

/* The product of v[0..n), INT64_MAX when it overflows: for callers that
 * run only after bench_check_nelems accepted the same dims. */
static inline int64_t bench_prod_i64_sat(const int64_t *v, int n) {
    int64_t p;
    return bench_prod_i64(v, n, &p) ? p : INT64_MAX;
}

/* `n` elements of `elem_size` bytes, SIZE_MAX when that overflows (no
 * allocation or memory check accepts SIZE_MAX bytes). */
static inline size_t bench_bytes_sat(int64_t n, size_t elem_size) {
    size_t bytes;
    if (n < 0 || (uint64_t)n > SIZE_MAX ||
        !bench_mul_size((size_t)n, elem_size, &bytes))
        return SIZE_MAX;
    return bytes;
}

/* A byte count estimated in double, as size_t: SIZE_MAX beyond it (the
 * plain conversion of a too large double is undefined). */
static inline size_t bench_bytes_from_double(double bytes) {
    if (!(bytes >= 0))
        return 0;
    if (bytes >= (double)SIZE_MAX)
        return SIZE_MAX;
    return (size_t)bytes;
}

/* 1 when the element count of a tensor of `ndims` dims fits in int64;
 * otherwise 0 with res INVALID_ARGUMENTS naming the tensor `what` and its
 * dims ("wei dims 30 x 9223372036854775807: more elements than a 64-bit
 * size holds"). */
int bench_check_nelems(const char *what, int ndims, const int64_t *dims,
                       res_t *res);

#endif
