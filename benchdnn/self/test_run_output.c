/* Machine-readable performance output: the timer's kept samples, the
 * %samples% field, and the run header printed once before the first
 * performance line. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "common/parser.h"
#include "common/perf_report.h"
#include "common/run_header.h"
#include "common/timer.h"
#include "tessera.h"

static int count_calls(void *ctx) {
    (*(int *)ctx)++;
    return 0;
}

static void test_timer_keeps_samples(void) {
    bench_settings_init();
    bench_timer_t t = {0};
    int calls = 0;
    CHECK(parse_common_option("--fix-times-per-prb=7") == 1);
    CHECK(bench_time(&t, count_calls, &calls) == 0);
    CHECK(t.times == 7 && t.n_samples == 7);
    double sum = 0, lo = t.samples_ms[0], hi = t.samples_ms[0];
    for (int i = 0; i < t.n_samples; i++) {
        sum += t.samples_ms[i];
        lo = t.samples_ms[i] < lo ? t.samples_ms[i] : lo;
        hi = t.samples_ms[i] > hi ? t.samples_ms[i] : hi;
    }
    /* The samples are the runs that min, average and max describe. */
    CHECK(lo == t.min_ms && hi == t.max_ms && sum == t.sum_ms);

    /* More runs than the array holds: bounded, the first ones kept. */
    const int many = BENCH_TIMER_MAX_SAMPLES + 10;
    char opt[64];
    snprintf(opt, sizeof(opt), "--fix-times-per-prb=%d", many);
    CHECK(parse_common_option(opt) == 1);
    CHECK(bench_time(&t, count_calls, &calls) == 0);
    CHECK(t.times == many && t.n_samples == BENCH_TIMER_MAX_SAMPLES);

    /* A new timing starts a new sample list. */
    CHECK(parse_common_option("--fix-times-per-prb=2") == 1);
    CHECK(bench_time(&t, count_calls, &calls) == 0);
    CHECK(t.times == 2 && t.n_samples == 2);
    bench_settings_free();
}

static const perf_fields_t fields = {
        .impl = "gemm:f32",
        .name = "",
        .prb = "--conv ic3oc4ih5kh3",
        .desc = "ic3oc4ih5kh3",
        .ops = 1e6,
};

static void print_two_lines(void *ctx) {
    perf_report(&fields, ctx);
    perf_report(&fields, ctx);
}

static int count_occurrences(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static void test_samples_field_and_run_header(void) {
    bench_settings_init();
    bench_timer_t t = {.times = 3, .min_ms = 0.5, .avg_ms = 1, .max_ms = 1.5};
    t.n_samples = 3;
    t.samples_ms[0] = 1.5;
    t.samples_ms[1] = 0.5;
    t.samples_ms[2] = 1;
    CHECK(parse_common_option("--perf-template=perf,%impl%,%prb%,%-time%,"
                              "%samples%") == 1);
    /* Unit prefixes do not apply to samples (always ms). */
    char err[BENCH_ERR_LEN] = "";
    CHECK(perf_template_set_try("%Ksamples%", err) == -1);
    CHECK(strstr(err, "unknown field '%Ksamples%'") != NULL);

    char *out = capture_stdout(print_two_lines, &t);
    if (CHECK(out != NULL)) {
        CHECK(count_occurrences(out, "perf,gemm:f32,--conv ic3oc4ih5kh3,0.5,"
                                     "1.5;0.5;1\n") == 2);
        /* The header: every key once, before the template line. */
        const char *keys[] = {
                "# date=",       "# commit=",        "# compiler=",
                "# build_type=", "# build_options=", "# isa=",
                "# threads=",    "# cpu=",           "# host="};
        const char *tpl = strstr(out, "Output template:");
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
            const char *at = strstr(out, keys[i]);
            CHECK(at != NULL && tpl != NULL && at < tpl);
            CHECK(count_occurrences(out, keys[i]) == 1);
        }
        CHECK(strncmp(out, "# date=", 7) == 0);
        free(out);
    }

    /* Once per process: a later template prints its own header line but
     * not the run header again. */
    CHECK(parse_common_option("--perf-template=csv") == 1);
    out = capture_stdout(print_two_lines, &t);
    if (CHECK(out != NULL)) {
        CHECK(strncmp(out, "perf,engine,impl,", 17) == 0);
        CHECK(strstr(out, "# date=") == NULL);
        free(out);
    }
    bench_settings_free();
}

static void test_header_values(void) {
    run_header_t h;
    run_header_collect(&h);
    CHECK(h.n == 9);
    for (int i = 0; i < h.n; i++) {
        CHECK(h.value[i][0] != '\0'); /* "unknown" at worst, never empty */
        CHECK(strchr(h.value[i], '\n') == NULL);
    }
    /* date: YYYY-MM-DDTHH:MM:SSZ */
    CHECK(!strcmp(h.key[0], "date") && strlen(h.value[0]) == 20 &&
          h.value[0][10] == 'T' && h.value[0][19] == 'Z');
    CHECK(!strcmp(h.key[5], "isa") &&
          !strcmp(h.value[5], tsr_cpu_isa2str(tsr_get_effective_cpu_isa())));
    CHECK(!strcmp(h.key[6], "threads") && atoi(h.value[6]) >= 1);
}

int main(void) {
    test_timer_keeps_samples();
    test_samples_field_and_run_header();
    test_header_values();
    return check_failures() != 0;
}
