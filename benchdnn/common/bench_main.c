/* benchdnn's command line: picks the driver, expands batch files and runs
 * the driver over the tokens (see bench_main.h). */
#include "common/bench_main.h"

#include <stdio.h>
#include <string.h>

#include "binary/binary.h"
#include "common/batch.h"
#include "common/benchdnn.h"
#include "common/cli_help.h"
#include "common/dnn_mem.h"
#include "common/parser.h"
#include "common/run_header.h"
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
        {"conv", conv_bench},       {"ip", ip_bench},
        {"matmul", matmul_bench},   {"eltwise", eltwise_bench},
        {"binary", binary_bench},   {"prelu", prelu_bench},
        {"reorder", reorder_bench}, {"zeropad", zeropad_bench},
        {"sum", sum_bench},         {"concat", concat_bench},
        {"shuffle", shuffle_bench},
};

/* oneDNN's drivers: those not in drivers[] get a clearer message. */
static const char *const onednn_only_drivers[] = {
        "binary",    "bnorm",   "brgemm",     "concat", "deconv", "eltwise",
        "gnorm",     "graph",   "lnorm",      "lrn",    "pool",   "prelu",
        "reduction", "reorder", "resampling", "rnn",    "self",   "shuffle",
        "softmax",   "sum",     "zeropad"};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* What --DRIVER --help prints after the options: the problem descriptor's
 * grammar and an example. print_options: for a driver whose bench does
 * not take a lone --help token (opt_driver_bench does). */
typedef struct {
    const char *name, *grammar, *example;
    void (*print_options)(FILE *f);
} driver_doc_t;

#define DIMS_GRAMMAR "NxC[xD][xH][xW][_nNAME]  (tensor dims)"
#define MULTI_DIMS_GRAMMAR                                                     \
    "A0xA1...:B0xB1...[:...][_nNAME]  (one dims per tensor; a shorter one\n"   \
    "  is padded with trailing 1s)"

static const driver_doc_t driver_docs[] = {
        {"conv",
         "[gX][mbX]icX[idX][ihX]iwX ocX[odX][ohX][owX] [kdX][khX]kwX\n"
         "  [sdX][shX][swX] [pdX][phX][pwX] [ddX][dhX][dwX][nNAME]  (one "
         "word, no\n"
         "  spaces; mb 2, strides 1 and dilations 0 unless given; a missing "
         "smaller\n"
         "  spatial dim copies a larger one; output or padding is derived)",
         "--conv --dt=u8:s8:u8 --attr-post-ops=relu mb2ic16ih10oc32kh3ph1",
         NULL},
        {"ip", "[mbX]icX[idX][ihX][iwX]ocX[nNAME]",
         "--ip --dir=FWD_I mb16ic64ih7oc1000", NULL},
        {"matmul",
         "[BATCHx]MxK:[BATCHx]KxN[:[BATCHx]MxN][_nNAME]  (batch dims of 1 "
         "broadcast)",
         "--matmul --dt=u8:s8:u8 --bia-dt=f32 2x10x30:2x30x20", NULL},
        {"eltwise", DIMS_GRAMMAR,
         "--eltwise --dir=FWD_D,BWD_D --alg=gelu_erf --alpha=0 --beta=0 "
         "32x384x1024",
         NULL},
        {"binary", MULTI_DIMS_GRAMMAR,
         "--binary --alg=add --stag=axb:axb 32x256x56x56:1x256x1x1", NULL},
        {"prelu", MULTI_DIMS_GRAMMAR, "--prelu --dir=BWD_D 2x16x7x7:1x16x1x1",
         NULL},
        {"reorder", DIMS_GRAMMAR,
         "--reorder --sdt=f32 --ddt=s8 --attr-oscale=per_dim_1:64 "
         "--dtag=aBcd16b 2x64x7x7",
         reorder_print_options},
        {"zeropad", DIMS_GRAMMAR, "--zeropad --tag=aBcd16b 2x20x7x7", NULL},
        {"sum", DIMS_GRAMMAR, "--sum --sdt=f32:u8 --scales=0.5:2 2x16x7x7",
         NULL},
        {"concat", MULTI_DIMS_GRAMMAR, "--concat --axis=1 2x16x7x7:2x32x7x7",
         NULL},
        {"shuffle", DIMS_GRAMMAR, "--shuffle --axis=1 --group=4 2x16x7x7",
         NULL},
};

static void print_usage(FILE *f) {
    fprintf(f, "Usage: benchdnn [COMMON-OPTIONS] --DRIVER [COMMON-OPTIONS] "
               "[DRIVER-OPTIONS] PROBLEM...\n"
               "       benchdnn --DRIVER --help   the driver's options and "
               "problem grammar\n"
               "       benchdnn --version\n"
               "Drivers:");
    for (size_t i = 0; i < COUNT_OF(drivers); i++)
        fprintf(f, " --%s", drivers[i].name);
    fprintf(f, "\nCommon options:\n");
    bench_print_option_docs(f, bench_common_option_docs,
                            bench_n_common_option_docs);
    fprintf(f, "Exit status: 0 passed, 1 a problem failed, 2 usage error.\n");
}

static void print_driver_help(const bench_driver_t *driver) {
    const driver_doc_t *doc = NULL;
    for (size_t i = 0; i < COUNT_OF(driver_docs); i++)
        if (!strcmp(driver_docs[i].name, driver->name))
            doc = &driver_docs[i];
    printf("Usage: benchdnn --%s [COMMON-OPTIONS] [OPTIONS] DESCRIPTOR...\n",
           driver->name);
    fflush(stdout);
    if (doc && doc->print_options)
        doc->print_options(stdout);
    else
        driver->bench(1, (char *[]){"--help"});
    fflush(stdout);
    if (doc)
        printf("Descriptor: %s\nExample: benchdnn %s\n", doc->grammar,
               doc->example);
    printf("Common options: benchdnn --help.\n");
}

/* The project's version (CMake's) and the library's (tsr_version), with
 * the build the run header names. */
static void print_version(void) {
    run_header_t h;
    run_header_collect(&h);
    const char *commit = "unknown", *compiler = "unknown";
    for (int k = 0; k < h.n; k++) {
        if (!strcmp(h.key[k], "commit"))
            commit = h.value[k];
        else if (!strcmp(h.key[k], "compiler"))
            compiler = h.value[k];
    }
    const tsr_version_t *lib = tsr_version();
    printf("benchdnn %s (commit %s, %s)\n", BENCHDNN_VERSION, commit, compiler);
    printf("library: tessera %d.%d.%d\n", lib->major, lib->minor, lib->patch);
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
        const char *sep = i == 0                       ? ""
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

/* A token that is neither a driver nor a common option: a usage error,
 * naming the closest driver or option when one is close. */
static void unknown_driver_or_option(const char *tok) {
    char list[256];
    if (is_onednn_only_driver(tok)) {
        driver_list(" and ", list, sizeof(list));
        bench_usage_error("unknown driver '%s': Tessera's benchdnn has "
                          "%s only",
                          tok, list);
    }
    size_t len;
    const char *name = bench_option_name(tok, &len);
    bench_suggest_t s;
    bench_suggest_init(&s, name, len);
    if (strncmp(tok, "--", 2) == 0) {
        for (size_t i = 0; i < COUNT_OF(drivers); i++)
            bench_suggest_consider(&s, drivers[i].name);
        for (int i = 0; i < bench_n_common_option_docs; i++)
            bench_suggest_consider(&s, bench_common_option_docs[i].name);
    }
    const char *best = bench_suggest_best(&s);
    if (best)
        bench_usage_error("unknown driver or option '%s' (did you mean "
                          "--%s%s?)",
                          tok, best, name[len] == '=' ? name + len : "");
    bench_usage_error("unknown driver or option '%s' (see --help)", tok);
}

/* What a hooked exit (bench_usage_exit) releases of a run. */
static void release_run(void *tokens) {
    token_list_free(tokens);
    bench_engine_release();
    bench_settings_free();
}

int benchdnn_main(int argc, char **argv) {
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
        if (!strcmp(argv[i], "--version")) {
            print_version();
            return BENCHDNN_EXIT_OK;
        }
        driver = find_driver(argv[i]);
        if (driver || parse_common_option(argv[i]))
            continue;
        unknown_driver_or_option(argv[i]);
    }
    if (!driver) {
        char list[256];
        driver_list(" or ", list, sizeof(list));
        bench_usage_error("no driver given (expected %s, see --help)", list);
    }
    for (int j = i; j < argc; j++) {
        if (is_help(argv[j])) {
            print_driver_help(driver);
            return BENCHDNN_EXIT_OK;
        }
        if (!strcmp(argv[j], "--version")) {
            print_version();
            return BENCHDNN_EXIT_OK;
        }
    }

    token_list_t tokens = {0};
    bench_cleanup_push(release_run, &tokens);
    batch_expand(argc - i, argv + i, driver->name, &tokens);
    batch_set_tokens(&tokens);
    driver->bench(tokens.n, tokens.tok);
    const int rc = report_summary();
    bench_cleanup_pop(1);
    return rc;
}
