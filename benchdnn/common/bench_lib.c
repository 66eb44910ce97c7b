/* --lib: library selection and the per-library run of one problem. */
#include "bench_lib.h"
#include "timer.h"

#include <stdio.h>
#include <string.h>

int bench_onednn_available(void) {
#ifdef BENCHDNN_WITH_ONEDNN
    return 1;
#else
    return 0;
#endif
}

int bench_lib_parse_try(const char *value, char *err) {
    static const struct {
        const char *name;
        int libs;
    } names[] = {
            {"tessera", BENCH_LIB_TESSERA},
            {"onednn", BENCH_LIB_ONEDNN},
            {"both", BENCH_LIB_BOTH},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(value, names[i].name) != 0)
            continue;
        if ((names[i].libs & BENCH_LIB_ONEDNN) && !bench_onednn_available()) {
            bench_set_err(err,
                          "--lib=%s: this benchdnn was built without oneDNN "
                          "(install libdnnl-dev and reconfigure)",
                          value);
            return -1;
        }
        bench_settings.libs = names[i].libs;
        return 0;
    }
    bench_set_err(err,
                  "--lib: unknown library '%s' (expected tessera, onednn or "
                  "both)",
                  value);
    return -1;
}

void bench_lib_repro(bench_lib_t lib, const char *repro, char *buf,
                     size_t len) {
    snprintf(buf, len, "%s%s", lib == BENCH_LIB_ONEDNN ? "--lib=onednn " : "",
             repro);
}

/* Tessera's run of a problem, called from inside oneDNN's timing. */
typedef struct {
    bench_lib_run_fn run;
    void *prb;
    const char *repro;
    res_t *res;
} second_run_t;

static void run_second(void *arg) {
    const second_run_t *s = arg;
    s->run(s->prb, BENCH_LIB_TESSERA, s->repro, s->res);
}

void bench_run_libs(int idx, const char *repro, bench_lib_run_fn run,
                    void *prb) {
    static const bench_lib_t order[] = {BENCH_LIB_TESSERA, BENCH_LIB_ONEDNN};
    enum { NLIBS = sizeof(order) / sizeof(order[0]) };
    char lib_repro[NLIBS][4096];
    res_t res[NLIBS];
    memset(res, 0, sizeof(res));
    for (int i = 0; i < NLIBS; i++)
        bench_lib_repro(order[i], repro, lib_repro[i], sizeof(lib_repro[i]));
    const int listing = bench_settings.mode & MODE_LIST;
    /* Both timed: Tessera's run goes inside oneDNN's timing, and the two
     * executions are timed in turns (bench_time_pair_begin); Tessera's
     * perf line still comes first. */
    const int paired = !listing && (bench_settings.mode & MODE_PERF) &&
                       (bench_settings.libs & BENCH_LIB_BOTH) == BENCH_LIB_BOTH;
    int done[NLIBS] = {0};
    if (paired) {
        second_run_t second = {run, prb, lib_repro[0], &res[0]};
        bench_time_pair_begin(run_second, &second);
        run(prb, order[1], lib_repro[1], &res[1]);
        done[1] = 1;
        done[0] = bench_time_pair_end();
    }
    for (int i = 0; i < NLIBS; i++) {
        if (!(bench_settings.libs & order[i]))
            continue;
        if (listing)
            res[i].state = STATE_LISTED;
        else if (!done[i])
            run(prb, order[i], lib_repro[i], &res[i]);
        report_result(idx, &res[i], lib_repro[i]);
    }
}
