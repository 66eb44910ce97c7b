/* Helpers of the harness' self tests: the check macros the library tests
 * use, and capture of what a call prints on stdout. */
#ifndef BENCHDNN_SELF_SELF_UTIL_H
#define BENCHDNN_SELF_SELF_UTIL_H

/* Include this first: dup2, fileno, mkdtemp need POSIX. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../tests/check.h"

/* Runs fn(ctx) with stdout going to a temporary file and returns what it
 * printed (malloc'd, NUL-terminated; NULL on a system error). */
static inline char *capture_stdout(void (*fn)(void *ctx), void *ctx) {
    FILE *tmp = tmpfile();
    if (!tmp)
        return NULL;
    fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    dup2(fileno(tmp), STDOUT_FILENO);
    fn(ctx);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    fseek(tmp, 0, SEEK_END);
    const long size = ftell(tmp);
    char *text = malloc(size > 0 ? (size_t)size + 1 : 1);
    if (text) {
        rewind(tmp);
        const size_t got = size > 0 ? fread(text, 1, (size_t)size, tmp) : 0;
        text[got] = '\0';
    }
    fclose(tmp);
    return text;
}

#endif
