/* Small helpers shared by every layer of the library. */
#ifndef TSR_COMMON_UTILS_H
#define TSR_COMMON_UTILS_H

#include <stddef.h>
#include <stdint.h>

#define TSR_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TSR_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TSR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline int64_t tsr_div_up(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
static inline int64_t tsr_rnd_up(int64_t a, int64_t b) {
    return tsr_div_up(a, b) * b;
}

/* 64-byte aligned allocation; tsr_free accepts NULL. */
void *tsr_malloc(size_t size);
void tsr_free(void *ptr);

/* getenv as an int, `dflt` when unset or not a number. */
int tsr_getenv_int(const char *name, int dflt);

#endif
