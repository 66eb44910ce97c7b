/* The timer's stop rules, paired timing (--lib=both) and the performance
 * line templates. */
#include "self_util.h"

#include <string.h>

#include "common/benchdnn.h"
#include "common/parser.h"
#include "common/perf_report.h"
#include "common/timer.h"

static int count_calls(void *ctx) {
    (*(int *)ctx)++;
    return 0;
}

static int fail_third_call(void *ctx) {
    return ++(*(int *)ctx) == 3 ? 7 : 0;
}

static void test_timer(void) {
    bench_settings_init();
    bench_timer_t t = {.ctime_ms = 1.25};
    int calls = 0;

    CHECK(parse_common_option("--fix-times-per-prb=4") == 1);
    CHECK(bench_time(&t, count_calls, &calls) == 0);
    CHECK(calls == 5 && t.times == 4); /* warm-up + 4 timed runs */
    CHECK(t.min_ms <= t.avg_ms && t.avg_ms <= t.max_ms);
    CHECK(t.ctime_ms == 1.25); /* the driver's creation time is kept */

    /* Time budget: at least 5 runs, and the budget respected. */
    CHECK(parse_common_option("--fix-times-per-prb=0") == 1);
    CHECK(parse_common_option("--max-ms-per-prb=10") == 1);
    calls = 0;
    const double start = bench_now_ms();
    CHECK(bench_time(&t, count_calls, &calls) == 0);
    const double spent = bench_now_ms() - start;
    CHECK(t.times >= 5 && spent >= 10 && spent < 1000);

    /* A failing run stops the timing and its status comes back. */
    calls = 0;
    CHECK(bench_time(&t, fail_third_call, &calls) == 7 && calls == 3);

    /* Cold cache still times every run. */
    CHECK(parse_common_option("--cold-cache=all") == 1);
    CHECK(parse_common_option("--fix-times-per-prb=3") == 1);
    calls = 0;
    CHECK(bench_time(&t, count_calls, &calls) == 0 && t.times == 3);
}

/* Paired timing: which execution ran, in order. */
static char pair_log[64];
static int pair_log_len;

static int exec_a(void *ctx) {
    (void)ctx;
    if (pair_log_len < 63)
        pair_log[pair_log_len++] = 'a';
    return 0;
}

/* b fails on its `fail_at`-th call (0: never). */
static int exec_b(void *ctx) {
    const int fail_at = *(const int *)ctx;
    if (pair_log_len < 63)
        pair_log[pair_log_len++] = 'b';
    int n = 0;
    for (int i = 0; i < pair_log_len; i++)
        n += pair_log[i] == 'b';
    return fail_at > 0 && n == fail_at ? 5 : 0;
}

typedef struct {
    int timed; /* 0: the second problem stops before its timing */
    int fail_at;
    bench_timer_t t;
    int rc;
} second_t;

static void second_problem(void *arg) {
    second_t *s = arg;
    if (s->timed)
        s->rc = bench_time(&s->t, exec_b, &s->fail_at);
}

static void test_pair(void) {
    bench_settings_init();
    CHECK(parse_common_option("--fix-times-per-prb=3") == 1);
    bench_timer_t t = {.ctime_ms = 2.5};

    /* Warm-ups, then one run of each in turns; each timer its own runs. */
    second_t s = {.timed = 1};
    memset(pair_log, 0, sizeof(pair_log));
    pair_log_len = 0;
    bench_time_pair_begin(second_problem, &s);
    CHECK(bench_time(&t, exec_a, NULL) == 0);
    CHECK(bench_time_pair_end() == 1);
    CHECK(strcmp(pair_log, "abababab") == 0);
    CHECK(t.times == 3 && s.t.times == 3 && s.rc == 0);
    CHECK(t.ctime_ms == 2.5);

    /* The second stops before its timing: the first is timed alone. */
    s = (second_t){.timed = 0};
    memset(pair_log, 0, sizeof(pair_log));
    pair_log_len = 0;
    bench_time_pair_begin(second_problem, &s);
    CHECK(bench_time(&t, exec_a, NULL) == 0);
    CHECK(bench_time_pair_end() == 1);
    CHECK(strcmp(pair_log, "aaaa") == 0 && t.times == 3);

    /* The second fails while timed: its status comes back to it, the
     * first keeps the runs it had. */
    s = (second_t){.timed = 1, .fail_at = 3};
    memset(pair_log, 0, sizeof(pair_log));
    pair_log_len = 0;
    bench_time_pair_begin(second_problem, &s);
    CHECK(bench_time(&t, exec_a, NULL) == 0);
    bench_time_pair_end();
    CHECK(s.rc == 5 && strcmp(pair_log, "ababab") == 0 && t.times == 2);

    /* Disarmed: bench_time times alone again. */
    memset(pair_log, 0, sizeof(pair_log));
    pair_log_len = 0;
    CHECK(bench_time(&t, exec_a, NULL) == 0 && strcmp(pair_log, "aaaa") == 0);
}

static const perf_fields_t fields = {
        .impl = "ref:any",
        .name = "alexnet:conv1",
        .prb = "--conv ic3oc96ih227kh11sh4",
        .desc = "ic3oc96ih227kh11sh4",
        .dir = "FWD_B",
        .dt = "f32",
        .tag = "abx",
        .alg = "direct",
        .attr = "",
        .mb = 2,
        .ops = 2e9,
        .ibytes = 1e6,
        .obytes = 3e6,
        .n_extra = 2,
        .extra_name = {"ic", "oc"},
        .extra_value = {"3", "96"},
};

static void print_two_lines(void *ctx) {
    const bench_timer_t *t = ctx;
    perf_report(&fields, t);
    perf_report(&fields, t);
}

static void test_templates(void) {
    bench_timer_t t = {
            .times = 3, .min_ms = 1, .avg_ms = 2, .max_ms = 4, .ctime_ms = 0.5};
    char *out;

    bench_settings_init();
    CHECK(parse_common_option("--perf-template=%-time%,%0time%,%+time%,"
                              "%Gops%,%-Gflops%,%0Gflops%,%Kbw%,%name%,"
                              "%impl%,%DESC%,%mb%,%ctime%") == 1);
    out = capture_stdout(print_two_lines, &t);
    if (CHECK(out != NULL)) {
        /* 2e9 ops in 1 ms = 2000 Gflops; 4e6 bytes in 1 ms = 4e6 Kbytes/s */
        const char *line = "1,2,4,2,2000,1000,4e+06,\"alexnet:conv1\","
                           "ref:any,3,96,2,0.5\n";
        /* The run header (once per process) comes first. */
        CHECK(strncmp(out, "# date=", 7) == 0);
        CHECK(strstr(out, "\nOutput template: %-time%") != NULL);
        const char *first = strstr(out, line);
        CHECK(first != NULL && strstr(first + 1, line) != NULL);
        free(out);
    }

    /* csv: a header row once per run, then the columns. */
    bench_settings_init();
    CHECK(parse_common_option("--perf-template=csv") == 1);
    out = capture_stdout(print_two_lines, &t);
    if (CHECK(out != NULL)) {
        CHECK(strncmp(out,
                      "perf,engine,impl,name,dir,cfg,tag,alg,attr,ic,oc,"
                      "Gops,ctime(ms),min_time(ms),min_Gflops,"
                      "avg_time(ms),avg_Gflops\n",
                      strlen("perf,engine,impl,name,dir,cfg,tag,alg,attr,ic,"
                             "oc,Gops,ctime(ms),min_time(ms),min_Gflops,"
                             "avg_time(ms),avg_Gflops\n")) == 0);
        const char *row = "perf,cpu,ref:any,\"alexnet:conv1\",FWD_B,f32,abx,"
                          "direct,,3,96,2,0.5,1,2000,2,1000\n";
        const char *first = strstr(out, row);
        CHECK(first != NULL && strstr(first + 1, row) != NULL);
        CHECK(strstr(out + 1, "perf,engine") == NULL); /* header once */
        free(out);
    }
    bench_settings_free();
}

int main(void) {
    test_timer();
    test_pair();
    test_templates();
    return check_failures() != 0;
}
