/* Minimal assertion helpers for the library's test programs: a failed
 * check prints where and what, counts, and the test carries on so one run
 * shows every failure. main() returns check_failures() != 0. */
#ifndef TSR_TESTS_CHECK_H
#define TSR_TESTS_CHECK_H

#include <stdio.h>

static int check_failure_count = 0;

static inline int check_report(int ok, const char *file, int line,
                               const char *what) {
    if (!ok) {
        check_failure_count++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

/* Evaluates to the condition, so a caller may skip dependent checks. */
#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

static inline int check_failures(void) {
    if (check_failure_count)
        fprintf(stderr, "%d check(s) failed\n", check_failure_count);
    return check_failure_count;
}

#endif
