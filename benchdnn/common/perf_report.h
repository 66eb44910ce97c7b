/* Performance lines per --perf-template. Default template:
 *   perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,%-Gflops%,
 *   %0time%,%0Gflops%
 * Field syntax %[-0+][KMG]name% per oneDNN's knobs_perf_report.md: '-'
 * min, '0' average, '+' max; K/M/G unit prefixes. Fields: engine, impl,
 * name, prb, dir, dt/cfg, tag, alg, attr, mb, desc (descriptor), ops,
 * time, ctime, flops, bw, ibytes, obytes, freq and clocks (always 0),
 * DESC (the driver's descriptor columns) and samples: every kept run time
 * in ms, ';'-separated, in run order (bench_timer_t keeps the first
 * BENCH_TIMER_MAX_SAMPLES).
 *
 * csv: a header row once, then one row per problem with these columns,
 * the same for every problem of a driver:
 *   perf,engine,impl,name,dir,cfg,tag,alg,attr,<DESC>,Gops,ctime(ms),
 *   min_time(ms),min_Gflops,avg_time(ms),avg_Gflops
 * where <DESC> is conv: g,mb,ic,id,ih,iw,oc,od,oh,ow,kd,kh,kw,sd,sh,sw,
 * pd,ph,pw,dd,dh,dw; matmul and ip: batch,m,n,k (the GEMM shape).
 *
 * Before the first line of a run, the run header (run_header.h) and then
 * the csv header row or "Output template: TEMPLATE" are printed. */
#ifndef BENCHDNN_COMMON_PERF_REPORT_H
#define BENCHDNN_COMMON_PERF_REPORT_H

#include "attr.h"
#include "benchdnn.h"

typedef struct {
    const char *impl;
    const char *name; /* problem name from n"..." or "" */
    const char *prb;  /* full repro options + descriptor */
    const char *desc; /* descriptor only */
    const char *dir, *dt, *tag, *alg, *attr;
    int64_t mb;
    double ops; /* floating-point (or integer) operations per run */
    double ibytes, obytes;
    /* csv: extra driver columns, "name=value" pairs. */
    int n_extra;
    const char *extra_name[32];
    const char *extra_value[32];
} perf_fields_t;

/* The fields every driver fills: the implementation res ran, the
 * problem's name, repro and descriptor and the bytes it moves; the other
 * texts "" and the numbers 0 for the driver to set. */
void perf_fields_init(perf_fields_t *f, const res_t *res, const char *name,
                      const char *repro, const char *desc, double ibytes,
                      double obytes);

/* The attributes' repro options without the leading space ("" for NULL),
 * printed into buf (len bytes, which must live until perf_report). */
const char *perf_attr_text(const bench_attr_t *attr, char *buf, size_t len);

/* Text of one extra column's value. */
#define PERF_EXTRA_LEN 24

/* Sets the n (<= 32) extra columns names[i]=values[i], printed into
 * `text`, which must live until perf_report. */
void perf_fields_set_extra(perf_fields_t *f, int n, const char *const *names,
                           const int64_t *values, char (*text)[PERF_EXTRA_LEN]);

/* Prints one performance line (and the csv header before the first). */
void perf_report(const perf_fields_t *f, const bench_timer_t *t);

/* perf_report with the csv columns n, c and sp (the product of the other
 * dims) of the ndims `dims`. */
void perf_report_ncsp(perf_fields_t *f, const int64_t *dims, int ndims,
                      const bench_timer_t *t);

/* --perf-template=VALUE: "def"/"default", "csv" or a custom template
 * (copied). Sets bench_settings.perf_template and perf_template_is_csv.
 * Returns 0, or -1 with a message naming an unknown or unterminated field
 * (settings untouched then). */
int perf_template_set_try(const char *value, char *err);

#endif
