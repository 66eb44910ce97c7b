/* Allocation and environment helpers shared by every layer. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "utils.h"

enum { TSR_ALIGNMENT = 64 };

void *tsr_malloc(size_t size) {
    /* aligned_alloc wants a multiple of the alignment; a zero request still
     * gets a real block so that NULL always means out of memory. */
    if (size > SIZE_MAX - TSR_ALIGNMENT)
        return NULL;
    size_t rounded = (size + TSR_ALIGNMENT - 1) / TSR_ALIGNMENT * TSR_ALIGNMENT;
    if (rounded == 0)
        rounded = TSR_ALIGNMENT;
    return aligned_alloc(TSR_ALIGNMENT, rounded);
}

void tsr_free(void *ptr) {
    free(ptr);
}

int tsr_getenv_int(const char *name, int dflt) {
    const char *value = name ? getenv(name) : NULL;
    if (!value || !*value)
        return dflt;
    char *end = NULL;
    errno = 0;
    long parsed = strtol(value, &end, 10);
    if (errno != 0 || *end != '\0' || parsed < INT_MIN || parsed > INT_MAX)
        return dflt;
    return (int)parsed;
}
