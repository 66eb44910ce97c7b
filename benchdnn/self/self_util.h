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
#include <string.h>
#include <unistd.h>

#include "../../tests/check.h"
#include "common/benchdnn.h"

/* A driver's descriptor parser: 0, or -1 with a message in err. */
typedef int (*desc_parse_fn)(const char *text, void *desc, char *err);

/* A driver's descriptor printer and, for the round trip, equality. */
typedef void (*desc_print_fn)(const void *desc, int canonical, char *buf,
                              size_t len);
typedef int (*desc_equal_fn)(const void *a, const void *b);

/* Parses `text` (descriptor of `size` bytes) and checks its printed form
 * (short or canonical); with `equal`, also that the printed form parses
 * back to an equal descriptor. */
static inline int desc_prints_as(desc_parse_fn parse, desc_print_fn print,
                                 desc_equal_fn equal, size_t size,
                                 const char *text, int canonical,
                                 const char *expected) {
    char err[BENCH_ERR_LEN], buf[256] = "";
    void *d = malloc(size), *again = malloc(size);
    int ok = d && again && parse(text, d, err) == 0;
    if (ok) {
        print(d, canonical, buf, sizeof(buf));
        ok = strcmp(buf, expected) == 0 &&
             (!equal || (parse(buf, again, err) == 0 && equal(d, again)));
        if (!ok)
            fprintf(stderr, "'%s' printed as '%s', expected '%s'\n", text, buf,
                    expected);
    }
    free(d);
    free(again);
    return ok;
}

/* A rejected descriptor: -1, the message names `named` (and the whole
 * `text` too with `names_text`), and the output descriptor (`size` bytes)
 * is left untouched. */
static inline int desc_rejected(desc_parse_fn parse, size_t size,
                                const char *text, const char *named,
                                int names_text) {
    char err[BENCH_ERR_LEN] = "";
    unsigned char *d = malloc(size), *before = malloc(size);
    int ok = d && before;
    if (ok) {
        memset(d, 0x5a, size);
        memset(before, 0x5a, size);
        const int rc = parse(text, d, err);
        ok = rc == -1 && strstr(err, named) != NULL &&
             (!names_text || strstr(err, text) != NULL) &&
             memcmp(d, before, size) == 0;
        if (!ok)
            fprintf(stderr,
                    "'%s': rc %d, message '%s', expected to name '%s'\n", text,
                    rc, err, named);
    }
    free(d);
    free(before);
    return ok;
}

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
