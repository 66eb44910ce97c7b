/* Common options, problem selection, result lines, the summary and the
 * driver token loop. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "common/parser.h"
#include "common/perf_report.h"

static char err[BENCH_ERR_LEN];

/* parse_common_option_try on `tok`: the return code. */
static int opt(const char *tok) {
    err[0] = '\0';
    return parse_common_option_try(tok, err);
}

/* A rejected option whose message names the offending text. */
static int rejected(const char *tok, const char *named) {
    return opt(tok) == -1 && strstr(err, named) != NULL;
}

static void test_helpers(void) {
    CHECK(!strcmp(parse_option_value("--dir=FWD_B", "dir"), "FWD_B"));
    CHECK(!strcmp(parse_option_value("--dir=FWD_B", "--dir"), "FWD_B"));
    CHECK(!strcmp(parse_option_value("--canonical", "canonical"), ""));
    CHECK(parse_option_value("--direction=x", "dir") == NULL);
    CHECK(parse_option_value("dir=x", "dir") == NULL);

    int64_t i;
    float f;
    int b;
    CHECK(parse_int_try("-42", &i) == 0 && i == -42);
    CHECK(parse_int_try("4x", &i) == -1);
    CHECK(parse_int_try("", &i) == -1);
    CHECK(parse_int_try(" 1", &i) == -1);
    CHECK(parse_float_try("0.25", &f) == 0 && f == 0.25f);
    CHECK(parse_float_try("1e-3", &f) == 0 && f == 1e-3f);
    CHECK(parse_float_try("nan", &f) == -1);
    CHECK(parse_float_try("1.5.", &f) == -1);
    CHECK(parse_bool_try("true", &b) == 0 && b == 1);
    CHECK(parse_bool_try("", &b) == 0 && b == 1);
    CHECK(parse_bool_try("false", &b) == 0 && b == 0);
    CHECK(parse_bool_try("maybe", &b) == -1);

    char *items[4];
    int n = parse_split_list("FWD_B,BWD_D,FWD_I", items, 4, "--dir");
    CHECK(n == 3);
    if (n == 3) {
        CHECK(!strcmp(items[0], "FWD_B") && !strcmp(items[2], "FWD_I"));
        for (int k = 0; k < n; k++)
            free(items[k]);
    }
}

static void test_common_options(void) {
    bench_settings_t *s = &bench_settings;
    bench_settings_init();
    CHECK(s->mode == MODE_CORR && s->max_ms_per_prb == 3000);
    CHECK(s->repeats_per_prb == 1 && s->summary == 1 && s->mem_check == 1);

    CHECK(opt("--mode=cp") == 1 && s->mode == (MODE_CORR | MODE_PERF));
    CHECK(opt("--mode=P") == 1 && s->mode == MODE_PERF);
    CHECK(opt("--mode=l") == 1 && s->mode == MODE_LIST);
    CHECK(opt("--mode=B") == 1 && s->mode == MODE_BITWISE);
    CHECK(opt("--mode=I") == 1 && s->mode == MODE_INIT);
    CHECK(opt("--mode=F") == 1 && s->mode == MODE_PERF &&
          s->max_ms_per_prb == 10);
    CHECK(rejected("--mode=X", "'X'"));
    CHECK(s->mode == MODE_PERF); /* unchanged by the bad value */

    CHECK(opt("-v3") == 1 && s->verbose == 3);
    CHECK(opt("--verbose=1") == 1 && s->verbose == 1);
    CHECK(rejected("--verbose=-1", "-1"));
    CHECK(rejected("--start=abc", "abc"));
    CHECK(opt("--start=5") == 1 && s->start == 5);
    CHECK(opt("--fix-times-per-prb=7") == 1 && s->fix_times_per_prb == 7);
    CHECK(opt("--max-ms-per-prb=1") == 1 && s->max_ms_per_prb == 10);
    CHECK(opt("--max-ms-per-prb=1e6") == 1 && s->max_ms_per_prb == 60000);
    CHECK(opt("--max-ms-per-prb=250") == 1 && s->max_ms_per_prb == 250);
    CHECK(rejected("--max-ms-per-prb=fast", "fast"));
    CHECK(rejected("--repeats-per-prb=0", "'0'"));
    CHECK(opt("--repeats-per-prb=3") == 1 && s->repeats_per_prb == 3);

    CHECK(opt("--canonical") == 1 && s->canonical == 1);
    CHECK(opt("--canonical=false") == 1 && s->canonical == 0);
    CHECK(rejected("--canonical=yes please", "yes please"));
    CHECK(opt("--mem-check=false") == 1 && s->mem_check == 0);
    CHECK(opt("--cold-cache=wei") == 1 && s->cold_cache == COLD_CACHE_WEI);
    CHECK(opt("--cold-cache=all") == 1 && s->cold_cache == COLD_CACHE_ALL);
    CHECK(rejected("--cold-cache=lukewarm", "lukewarm"));
    CHECK(opt("--summary=no-failures") == 1 && s->summary == 0);
    CHECK(opt("--summary") == 1 && s->summary == 1);
    CHECK(rejected("--summary=everything", "everything"));
    CHECK(opt("--engine=cpu") == 1);
    CHECK(rejected("--engine=gpu", "gpu"));
    CHECK(opt("--shard=1/3") == 1 && s->shard_index == 1 &&
          s->shard_count == 3);
    CHECK(rejected("--shard=3/3", "3/3"));
    CHECK(rejected("--shard=2", "'2'"));

    CHECK(opt("--perf-template=csv") == 1 && s->perf_template_is_csv);
    CHECK(opt("--perf-template=%-time%,%Gflops%") == 1 &&
          !s->perf_template_is_csv &&
          !strcmp(s->perf_template, "%-time%,%Gflops%"));
    CHECK(rejected("--perf-template=%bogus%", "%bogus%"));
    CHECK(rejected("--perf-template=%time", "%time"));
    CHECK(opt("--perf-template=def") == 1 &&
          strstr(s->perf_template, "%-Gflops%") != NULL);

    CHECK(opt("--skip-impl=ref,gemm") == 1 && s->n_skip_impl == 2);
    /* Batch files quote some values. */
    CHECK(opt("--skip-impl=\"ref:gemm\"") == 1 && s->n_skip_impl == 1 &&
          !strcmp(s->skip_impl[0], "ref:gemm"));
    CHECK(opt("--allow-unimpl=true") == 1 && s->allow_unimpl == 1);
    CHECK(rejected("--impl=a,,b", "a,,b"));
    CHECK(opt("--match=.*") == 1);
    CHECK(rejected("--match=(ic", "(ic"));

    CHECK(opt("--dir=FWD_B") == 0); /* a driver option */
    CHECK(opt("--fancy") == 0);
    CHECK(opt("ic16oc16ih4oh4kh3ph1") == 0);
    /* oneDNN options with nothing to act on are accepted. */
    CHECK(opt("--allow-enum-tags-only=false") == 1);
}

static void test_selection(void) {
    bench_settings_init();
    CHECK(bench_should_run(0, "--conv ic16") == 1);
    bench_settings.start = 2;
    CHECK(bench_should_run(1, "x") == 0 && bench_should_run(2, "x") == 1);
    bench_settings.start = 0;

    CHECK(opt("--shard=1/3") == 1);
    int run = 0, wrong = 0;
    for (int i = 0; i < 9; i++) {
        if (bench_should_run(i, "x")) {
            run++;
            wrong += i % 3 != 1;
        }
    }
    CHECK(run == 3 && wrong == 0);
    CHECK(bench_should_run(3, "x") == 0);
    CHECK(opt("--shard=0/1") == 1);

    CHECK(opt("--match=ic(16|32)oc") == 1);
    CHECK(bench_should_run(0, "--conv ic16oc32ih8") == 1);
    CHECK(bench_should_run(0, "--conv ic64oc32ih8") == 0);
    CHECK(opt("--match=") == 1); /* clears */
    CHECK(bench_should_run(0, "--conv ic64oc32ih8") == 1);

    CHECK(bench_impl_allowed("ref:any") == 1);
    CHECK(opt("--skip-impl=ref") == 1);
    CHECK(bench_impl_allowed("ref:any") == 0);
    CHECK(bench_impl_allowed("avx2:direct") == 1);
    CHECK(opt("--impl=avx2,gemm") == 1); /* replaces the skip list */
    CHECK(bench_impl_allowed("ref:any") == 0);
    CHECK(bench_impl_allowed("avx2:direct") == 1);
    CHECK(bench_impl_allowed("gemm:jit") == 1);
    CHECK(opt("--impl=") == 1);
    CHECK(bench_impl_allowed("ref:any") == 1);
}

static void print_two_results(void *ctx) {
    (void)ctx;
    res_t pass = {.state = STATE_PASSED};
    res_t fail = {.state = STATE_FAILED, .errors = 3, .total = 64};
    res_t skip = {.state = STATE_SKIPPED};
    snprintf(skip.reason, sizeof(skip.reason), "Skip-impl option hit");
    report_result(0, &pass, "--conv ic16oc16ih4kh3");
    report_result(1, &fail, "--conv ic32oc16ih4kh3");
    report_result(2, &skip, "--conv ic8oc8ih4kh3");
    *(int *)ctx = report_summary();
}

static void print_perf_summary(void *ctx) {
    res_t r = {.state = STATE_EXECUTED};
    r.timer.times = 4;
    r.timer.min_ms = 1.5;
    r.timer.avg_ms = 2;
    report_result(0, &r, "--conv --mode=P ic16");
    report_result(1, &r, "--conv --mode=P ic32");
    *(int *)ctx = report_summary();
}

static void print_unimplemented(void *ctx) {
    res_t r = {.state = STATE_UNIMPLEMENTED};
    report_result(0, &r, "--conv ic3");
    *(int *)ctx = report_summary();
}

static void test_report(void) {
    bench_settings_init();
    int rc = -1;
    char *out = capture_stdout(print_two_results, &rc);
    CHECK(out != NULL);
    if (!out)
        return;
    CHECK(rc == BENCHDNN_EXIT_FAILED);
    CHECK(strstr(out, "0:PASSED __REPRO: --conv ic16oc16ih4kh3\n") != NULL);
    CHECK(strstr(out, "1:FAILED (errors:3 total:64) __REPRO: --conv "
                      "ic32oc16ih4kh3\n") != NULL);
    CHECK(strstr(out, "2:SKIPPED (Skip-impl option hit) __REPRO: ") != NULL);
    CHECK(strstr(out, "tests:3 passed:1 skipped:1 mistrusted:0 "
                      "unimplemented:0 invalid_arguments:0 failed:1 "
                      "listed:0\n") != NULL);
    CHECK(strstr(out, "Failed cases summary") != NULL);
    CHECK(strstr(out, "total perf") == NULL);
    free(out);

    /* UNIMPLEMENTED fails the run unless --allow-unimpl. */
    bench_settings_init();
    out = capture_stdout(print_unimplemented, &rc);
    CHECK(rc == BENCHDNN_EXIT_FAILED);
    free(out);
    bench_settings_init();
    CHECK(opt("--allow-unimpl") == 1);
    out = capture_stdout(print_unimplemented, &rc);
    CHECK(rc == BENCHDNN_EXIT_OK);
    CHECK(out && strstr(out, "unimplemented:1 ") != NULL);
    free(out);

    bench_settings_init();
    CHECK(opt("--mode=P") == 1);
    out = capture_stdout(print_perf_summary, &rc);
    CHECK(out != NULL);
    if (!out)
        return;
    CHECK(rc == BENCHDNN_EXIT_OK);
    CHECK(strstr(out, "tests:2 passed:2 skipped:0") != NULL);
    CHECK(strstr(out, "total perf: min(ms):3 avg(ms):4\n") != NULL);
    free(out);
}

/* A fake driver recording what the loop hands it. */
typedef struct {
    char log[512];
} fake_driver_t;

static int fake_parse_option(void *state, const char *tok) {
    fake_driver_t *d = state;
    if (!parse_option_value(tok, "dir"))
        return 0;
    strcat(d->log, "opt ");
    return 1;
}

static void fake_reset(void *state) {
    strcat(((fake_driver_t *)state)->log, "reset ");
}

static void fake_run(void *state, const char *desc) {
    fake_driver_t *d = state;
    strcat(d->log, desc);
    strcat(d->log, " ");
}

static void test_driver_loop(void) {
    bench_settings_init();
    fake_driver_t d = {""};
    bench_driver_loop_t loop = {.state = &d,
                                .parse_option = fake_parse_option,
                                .reset = fake_reset,
                                .run_descriptor = fake_run};
    char *toks[] = {"--mode=L", "--dir=FWD_D",         "ic1",
                    "--reset",  "--repeats-per-prb=2", "ic2"};
    bench_driver_loop(6, toks, &loop);
    CHECK(!strcmp(d.log, "opt ic1 reset ic2 ic2 "));
    CHECK(bench_settings.mode == MODE_LIST);
    CHECK(bench_next_index() == 0 && bench_next_index() == 1);
}

int main(void) {
    test_helpers();
    test_common_options();
    test_selection();
    test_report();
    test_driver_loop();
    bench_settings_free();
    return check_failures() != 0;
}
