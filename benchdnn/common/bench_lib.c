/* --lib: library selection and the per-library run of one problem. */
#include "bench_lib.h"

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

void bench_run_libs(int idx, const char *repro, bench_lib_run_fn run,
                    void *prb) {
    static const bench_lib_t order[] = {BENCH_LIB_TESSERA, BENCH_LIB_ONEDNN};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        if (!(bench_settings.libs & order[i]))
            continue;
        char lib_repro[4096];
        bench_lib_repro(order[i], repro, lib_repro, sizeof(lib_repro));
        res_t res;
        memset(&res, 0, sizeof(res));
        if (bench_settings.mode & MODE_LIST)
            res.state = STATE_LISTED;
        else
            run(prb, order[i], lib_repro, &res);
        report_result(idx, &res, lib_repro);
    }
}
