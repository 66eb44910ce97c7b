/* --lib: parsing (also through the common options), the repro of each
 * library's run, and bench_run_libs' order, lines and list mode. */
#include "self_util.h"

#include <string.h>

#include "common/bench_lib.h"
#include "common/parser.h"

static void test_parse(void) {
    bench_settings_init();
    char err[BENCH_ERR_LEN] = "";
    CHECK(bench_settings.libs == BENCH_LIB_TESSERA);
    CHECK(parse_common_option_try("--lib=tessera", err) == 1 &&
          bench_settings.libs == BENCH_LIB_TESSERA);
    CHECK(parse_common_option_try("--lib=mkl", err) == -1 &&
          strstr(err, "unknown library 'mkl'") &&
          bench_settings.libs == BENCH_LIB_TESSERA);
    CHECK(parse_common_option_try("--lib=", err) == -1);
    const int with = bench_onednn_available();
    CHECK(parse_common_option_try("--lib=both", err) == (with ? 1 : -1));
    CHECK(bench_settings.libs == (with ? BENCH_LIB_BOTH : BENCH_LIB_TESSERA));
    if (!with)
        CHECK(strstr(err, "built without oneDNN") != NULL);
    CHECK(parse_common_option_try("--lib=onednn", err) == (with ? 1 : -1));
    CHECK(bench_settings.libs == (with ? BENCH_LIB_ONEDNN : BENCH_LIB_TESSERA));
    bench_settings_init();
    CHECK(bench_settings.libs == BENCH_LIB_TESSERA);
}

static void test_repro(void) {
    char buf[64];
    bench_lib_repro(BENCH_LIB_TESSERA, "--conv ic3", buf, sizeof(buf));
    CHECK(strcmp(buf, "--conv ic3") == 0);
    bench_lib_repro(BENCH_LIB_ONEDNN, "--conv ic3", buf, sizeof(buf));
    CHECK(strcmp(buf, "--lib=onednn --conv ic3") == 0);
}

/* Records the libraries it was called for; oneDNN "fails". */
typedef struct {
    int calls;
    bench_lib_t order[4];
} run_log_t;

static void fake_run(void *prb, bench_lib_t lib, const char *repro,
                     res_t *res) {
    run_log_t *log = prb;
    (void)repro;
    if (log->calls < 4)
        log->order[log->calls] = lib;
    log->calls++;
    res->state = lib == BENCH_LIB_ONEDNN ? STATE_FAILED : STATE_PASSED;
}

static run_log_t run_log;

static void run_problem_7(void *ctx) {
    (void)ctx;
    bench_run_libs(7, "--conv ic3", fake_run, &run_log);
}

static void test_run_libs(void) {
    bench_settings_init();
    bench_settings.libs = BENCH_LIB_BOTH; /* as --lib=both sets it */
    memset(&run_log, 0, sizeof(run_log));
    char *out = capture_stdout(run_problem_7, NULL);
    CHECK(out != NULL);
    CHECK(run_log.calls == 2 && run_log.order[0] == BENCH_LIB_TESSERA &&
          run_log.order[1] == BENCH_LIB_ONEDNN);
    CHECK(out && strcmp(out, "7:PASSED __REPRO: --conv ic3\n"
                             "7:FAILED (errors:0 total:0) __REPRO: "
                             "--lib=onednn --conv ic3\n") == 0);
    CHECK(bench_stats.tests == 2 && bench_stats.count[STATE_FAILED] == 1);
    free(out);

    /* List mode names both runs and calls neither. */
    bench_settings_init();
    bench_settings.libs = BENCH_LIB_BOTH;
    bench_settings.mode = MODE_LIST;
    memset(&run_log, 0, sizeof(run_log));
    out = capture_stdout(run_problem_7, NULL);
    CHECK(run_log.calls == 0);
    CHECK(out &&
          strcmp(out, "7:LISTED __REPRO: --conv ic3\n"
                      "7:LISTED __REPRO: --lib=onednn --conv ic3\n") == 0);
    free(out);

    /* The default runs Tessera only. */
    bench_settings_init();
    memset(&run_log, 0, sizeof(run_log));
    out = capture_stdout(run_problem_7, NULL);
    CHECK(run_log.calls == 1 && run_log.order[0] == BENCH_LIB_TESSERA);
    free(out);
    bench_settings_free();
}

int main(void) {
    test_parse();
    test_repro();
    test_run_libs();
    return check_failures() != 0;
}
