/* benchdnn sum driver (DRIVERS.md §10):
 *
 *   benchdnn --sum [--sdt=f32:f32] [--ddt=f32] [--stag=abx[:abx...]]
 *                  [--dtag=undef|any|TAG] [--scales=1[:1...]]
 *                  [--inplace=BOOL] [--attr-scratchpad=..] D0xD1x...[_nNAME]
 *
 * dst = sum over i of scales[i] * src_i, N >= 2 sources of the same dims
 * (as many as --sdt lists; one --stag or --scales value stands for all).
 * --dtag=undef passes no dst descriptor: dst takes src 0's data type and
 * --ddt is ignored. Lists multiply in the order sdt, ddt, stag, dtag,
 * attributes, scales, inplace. */
#ifndef BENCHDNN_SUM_SUM_H
#define BENCHDNN_SUM_SUM_H

#include <stddef.h>

#include "common/attr.h"
#include "common/dims_desc.h"
#include "sum/multi_src.h"
#include "tessera.h"

typedef struct {
    dims_desc_t desc;
    int n;                  /* sources */
    multi_src_list_t sdt;   /* lower case */
    multi_src_list_t stag;  /* one per source */
    multi_src_list_t scale; /* one per source, as given */
    tsr_data_type_t sdt_dt[MULTI_SRC_MAX];
    float scales[MULTI_SRC_MAX];
    char ddt[MULTI_SRC_ITEM_LEN]; /* lower case */
    tsr_data_type_t ddt_dt;
    char dtag[MULTI_SRC_ITEM_LEN];
    char unsupported[16]; /* a type name the library lacks, or "" */
    int inplace;
    bench_attr_t attr;
} sum_prb_t;

void sum_prb_repro(const sum_prb_t *p, int canonical, char *buf, size_t len);
int sum_bench(int ntokens, char **tokens);

/* Source `input`'s value at dense index i (DRIVERS.md §10), before
 * rounding to its data type. */
float sum_fill_value(tsr_data_type_t dt, int input, int64_t i);
/* 0 when no dst descriptor is passed (--dtag=undef). */
int sum_has_dst_desc(const sum_prb_t *p);
/* What both libraries share before their descriptors: the skips and the
 * argument declarations; 0 with res set when the problem stops. */
int sum_prepare(bench_args_run_t *r, res_t *res);
/* The problem with oneDNN's descriptors (sum_onednn.c). */
int sum_onednn_create(bench_args_run_t *r, res_t *res);
/* Runs the problem on the library `lib` selects. */
void sum_run_problem(const sum_prb_t *p, bench_lib_t lib, const char *repro,
                     res_t *res);

#endif
