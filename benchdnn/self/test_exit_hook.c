/* bench_usage_exit with a hook (as the fuzz targets run benchdnn): every
 * driver's usage errors come back to the caller with status 2 instead of
 * ending the process, with the run's cleanups done (the ASan build's leak
 * check sees what they miss), and the next run starts from the defaults. */
#include "self_util.h"

#include <setjmp.h>

#include "common/bench_main.h"

static jmp_buf jump;
static int hooked_code = -1;

static void exit_hook(int code) {
    hooked_code = code;
    longjmp(jump, 1);
}

/* benchdnn_main's status, or 100 + the status of a hooked exit. */
static int run(int argc, char **argv) {
    hooked_code = -1;
    if (setjmp(jump) == 0)
        return benchdnn_main(argc, argv);
    return 100 + hooked_code;
}

#define RUN(...)                                                               \
    run(sizeof((char *[]){"benchdnn", __VA_ARGS__}) / sizeof(char *),          \
        (char *[]){"benchdnn", __VA_ARGS__})

typedef struct {
    const char *driver, *problem;
} driver_case_t;

static const driver_case_t drivers[] = {
        {"--conv", "mb1ic2iw3oc2kw2"},
        {"--ip", "mb1ic2oc2"},
        {"--matmul", "2x3:3x4"},
        {"--eltwise", "2x3"},
        {"--binary", "2x3:2x3"},
        {"--prelu", "2x3:1x3"},
        {"--reorder", "2x3"},
        {"--zeropad", "2x3"},
        {"--sum", "2x3"},
        {"--concat", "2x3:2x3"},
        {"--shuffle", "2x4"},
};

int main(void) {
    bench_set_exit_hook(exit_hook);
    for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
        const char *drv = drivers[i].driver, *prb = drivers[i].problem;
        char *d = (char *)drv, *p = (char *)prb;
        /* The problems a clean run lists (some drivers multiply a
         * descriptor by default option lists). */
        CHECK(RUN("--mode=L", d, p) == 0);
        const int listed_alone = bench_stats.count[STATE_LISTED];
        CHECK(listed_alone >= 1 && bench_stats.tests == listed_alone);
        CHECK(RUN("--mode=L", d, "--no-such-option") == 102);
        CHECK(RUN("--mode=L", d, "--attr-post-ops=nonsense", p) == 102);
        CHECK(RUN("--mode=L", d, "not_a_descriptor") == 102);
        CHECK(RUN("--mode=L", d, p, "--batch=no/such/file") == 102);
        /* An error after a listed problem, inside the driver's loop. */
        CHECK(RUN("--mode=L", "--start=1", d, p, p, "-") == 102);
        /* Afresh: --start and the counts of the failed runs are gone. */
        if (!CHECK(RUN("--mode=L", d, p) == 0))
            fprintf(stderr, "driver %s, problem %s\n", drv, prb);
        if (!CHECK(bench_stats.tests == listed_alone &&
                   bench_stats.count[STATE_LISTED] == listed_alone))
            fprintf(stderr, "driver %s: %d tests, %d listed, %d alone\n", drv,
                    bench_stats.tests, bench_stats.count[STATE_LISTED],
                    listed_alone);
    }
    CHECK(RUN("--nonsense") == 102);
    CHECK(RUN("--mode=L") == 102); /* no driver */
    CHECK(RUN("--mode=L", "--conv", "--help") == 0);
    bench_set_exit_hook(NULL);
    return check_failures() != 0;
}
