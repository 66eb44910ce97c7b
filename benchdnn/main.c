/* benchdnn: picks the driver, expands batch files and runs the driver over
 * the tokens; prints the summary and exits 0 (all good), 1 (a problem
 * failed) or 2 (usage error). */
#include <stdio.h>
#include <string.h>

#include "binary/binary.h"
#include "common/batch.h"
#include "common/benchdnn.h"
#include "common/dnn_mem.h"
#include "common/parser.h"
#include "concat/concat.h"
#include "conv/conv.h"
#include "eltwise/eltwise.h"
#include "ip/ip.h"
#include "matmul/matmul.h"
#include "prelu/prelu.h"
#include "reorder/reorder.h"
#include "shuffle/shuffle.h"
#include "sum/sum.h"
#include "zeropad/zeropad.h"

static const bench_driver_t drivers[] = {
        {"conv", conv_bench},
        {"ip", ip_bench},
        {"matmul", matmul_bench},
        {"eltwise", eltwise_bench},
        {"binary", binary_bench},
        {"prelu", prelu_bench},
        {"reorder", reorder_bench},
        {"zeropad", zeropad_bench},
        {"sum", sum_bench},
        {"concat", concat_bench},
        {"shuffle", shuffle_bench},
};

/* oneDNN's drivers: those not in drivers[] get a clearer message. */
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
    if (strncmp(tok, "--", 2) != 0 || find_driver(tok))
        return 0;
    for (size_t i = 0; i < COUNT_OF(onednn_only_drivers); i++)
        if (strcmp(tok + 2, onednn_only_drivers[i]) == 0)
            return 1;
    return 0;
}

/* "--conv, --ip, --matmul and --eltwise" (`last` joins the last two). */
static void driver_list(const char *last, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < COUNT_OF(drivers) && used < len; i++) {
        const char *sep = i == 0                      ? ""
                          : i + 1 == COUNT_OF(drivers) ? last
                                                       : ", ";
        int n = snprintf(buf + used, len - used, "%s--%s", sep,
                         drivers[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
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
        char list[256];
        if (is_onednn_only_driver(argv[i])) {
            driver_list(" and ", list, sizeof(list));
            bench_usage_error("unknown driver '%s': Tessera's benchdnn has "
                              "%s only",
                              argv[i], list);
        }
        bench_usage_error("unknown driver or option '%s' (see --help)",
                          argv[i]);
    }
    if (!driver) {
        char list[256];
        driver_list(" or ", list, sizeof(list));
        bench_usage_error("no driver given (expected %s, see --help)", list);
    }
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
