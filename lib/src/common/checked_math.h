/* Overflow-checked size arithmetic: every size the library derives from
 * user dims goes through these, so an overflow is a status, never
 * undefined behaviour. Each returns 1 and writes the result when it fits,
 * 0 (and writes nothing) otherwise. */
#ifndef TSR_COMMON_CHECKED_MATH_H
#define TSR_COMMON_CHECKED_MATH_H

#include <stddef.h>
#include <stdint.h>

static inline int tsr_mul_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int tsr_add_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int tsr_sub_i64(int64_t a, int64_t b, int64_t *out) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int tsr_mul_size(size_t a, size_t b, size_t *out) {
    size_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

static inline int tsr_add_size(size_t a, size_t b, size_t *out) {
    size_t r;
    if (__builtin_add_overflow(a, b, &r))
        return 0;
    *out = r;
    return 1;
}

#endif
