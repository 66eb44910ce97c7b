/* benchdnn: picks the driver, expands batch files and runs the driver over
 * the tokens; prints the summary and exits 0 (all good), 1 (a problem
 * failed) or 2 (usage error). */
#include <stdio.h>
#include <string.h>

#include "common/batch.h"
#include "common/benchdnn.h"
#include "common/dnn_mem.h"
#include "common/parser.h"
#include "conv/conv.h"
#include "ip/ip.h"
#include "matmul/matmul.h"

static const bench_driver_t drivers[] = {
        {"conv", conv_bench},
        {"ip", ip_bench},
        {"matmul", matmul_bench},
};

/* oneDNN drivers Tessera does not have: named in a clearer message. */
static const char *const onednn_only_drivers[] = {
        "binary",    "bnorm",   "brgemm",     "concat", "deconv", "eltwise",
        "gnorm",     "graph",   "lnorm",      "lrn",    "pool",   "prelu",
        "reduction", "reorder", "resampling", "rnn",    "self",   "shuffle",
        "softmax",   "sum",     "zeropad"};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static void print_usage(FILE *f) {
    fprintf(f, "Usage: benchdnn [COMMON-OPTIONS] --DRIVER [COMMON-OPTIONS] "
               "[DRIVER-OPTIONS] PROBLEM...\n"
               "Drivers:");
    for (size_t i = 0; i < COUNT_OF(drivers); i++)
        fprintf(f, " --%s", drivers[i].name);
    fprintf(f,
            "\nCommon options:\n"
            "  --batch=FILE            read options and problems from FILE\n"
            "  --reset                 driver options back to defaults\n"
            "  --mode=C|P|CP|L|I|B|F   correctness, performance, both, "
            "list,\n"
            "                          init only, bitwise, fast performance\n"
            "  -vN, --verbose=N        verbosity\n"
            "  --match=REGEX           run problems whose repro matches\n"
            "  --impl=A,B --skip-impl=A,B  implementation name filters\n"
            "  --start=N               skip problems before index N\n"
            "  --shard=I/N             run every N-th problem from I\n"
            "  --fix-times-per-prb=N --max-ms-per-prb=N "
            "--repeats-per-prb=N\n"
            "  --perf-template=def|csv|TEMPLATE  performance line format\n"
            "  --canonical[=BOOL] --mem-check[=BOOL] "
            "--cold-cache=none|wei|all\n"
            "  --summary=[no-]failures --engine=cpu --allow-unimpl\n"
            "  --lib=tessera|onednn|both  library per problem (both: side "
            "by side)\n"
            "Exit status: 0 passed, 1 a problem failed, 2 usage error.\n");
}

static const bench_driver_t *find_driver(const char *tok) {
    if (strncmp(tok, "--", 2) != 0)
        return NULL;
    for (size_t i = 0; i < COUNT_OF(drivers); i++)
        if (strcmp(tok + 2, drivers[i].name) == 0)
            return &drivers[i];
    return NULL;
}

static int is_onednn_only_driver(const char *tok) {
    for (size_t i = 0; i < COUNT_OF(onednn_only_drivers); i++)
        if (strncmp(tok, "--", 2) == 0 &&
            strcmp(tok + 2, onednn_only_drivers[i]) == 0)
            return 1;
    return 0;
}

static int is_help(const char *tok) {
    return !strcmp(tok, "--help") || !strcmp(tok, "-h");
}

int main(int argc, char **argv) {
    bench_settings_init();
    if (argc < 2) {
        print_usage(stderr);
        return BENCHDNN_EXIT_USAGE;
    }

    /* Common options may come before the driver, as oneDNN allows. */
    const bench_driver_t *driver = NULL;
    int i = 1;
    for (; i < argc && !driver; i++) {
        if (is_help(argv[i])) {
            print_usage(stdout);
            return BENCHDNN_EXIT_OK;
        }
        driver = find_driver(argv[i]);
        if (driver || parse_common_option(argv[i]))
            continue;
        if (is_onednn_only_driver(argv[i]))
            bench_usage_error("unknown driver '%s': Tessera's benchdnn has "
                              "--conv, --ip and --matmul only",
                              argv[i]);
        bench_usage_error("unknown driver or option '%s' (see --help)",
                          argv[i]);
    }
    if (!driver)
        bench_usage_error(
                "no driver given (expected --conv, --ip or --matmul, see "
                "--help)");
    for (int j = i; j < argc; j++) {
        if (is_help(argv[j])) {
            print_usage(stdout);
            return BENCHDNN_EXIT_OK;
        }
    }

    token_list_t tokens = {0};
    batch_expand(argc - i, argv + i, driver->name, &tokens);
    driver->bench(tokens.n, tokens.tok);
    const int rc = report_summary();

    token_list_free(&tokens);
    bench_engine_release();
    bench_settings_free();
    return rc;
}
