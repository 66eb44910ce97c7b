/* benchdnn binary driver (DRIVERS.md §12):
 *
 *   benchdnn --binary [--sdt=DT0:DT1] [--ddt=DT] [--stag=TAG0:TAG1]
 *                     [--dtag=any|TAG] [--alg=ADD|SUB|MUL|DIV|MIN|MAX|GE|GT|
 *                     LE|LT|EQ|NE] [--attr-scales=src:common:S+src1:..]
 *                     [--attr-post-ops=..] [--attr-scratchpad=..]
 *                     [--inplace=BOOL] A0xA1x...:B0xB1x...[_nNAME]...
 *
 * Lists multiply in that order. The shorter source is padded with
 * trailing 1s; either source may broadcast, dst takes the larger size of
 * each dim. --sdt and --stag take exactly two values (`any` is accepted
 * for src1, v3.x's default `abx:any`). The run is the argument-keyed
 * pipeline (common/bench_args.h). */
#ifndef BENCHDNN_BINARY_BINARY_H
#define BENCHDNN_BINARY_BINARY_H

#include <stddef.h>

#include "binary/multi_dims_desc.h"
#include "common/attr.h"
#include "common/benchdnn.h"
#include "common/opt_lists.h"
#include "tessera.h"

typedef struct {
    multi_dims_desc_t desc; /* [0] src0, [1] src1 */
    int64_t dst_dims[TSR_MAX_NDIMS];
    tsr_data_type_t sdt[2], ddt; /* undef: see unsupported */
    char unsupported[16];        /* a data type name Tessera lacks */
    char sdt_text[OPT_VALUE_LEN], ddt_text[OPT_VALUE_LEN]; /* lower case */
    char stag_text[OPT_VALUE_LEN];
    char stag[2][OPT_VALUE_LEN];
    char dtag[OPT_VALUE_LEN];
    tsr_alg_kind_t alg;
    int inplace;
    bench_attr_t attr;        /* src (src0) scales among them */
    bench_scale_t src1_scale; /* set: --attr-scales has a src1 entry */
} binary_prb_t;

/* The algorithm `s` names (case-insensitive, with or without the
 * "binary_" prefix), or tsr_alg_kind_undef. */
tsr_alg_kind_t binary_alg_find(const char *s);
/* 1 for the comparisons (GE, GT, LE, LT, EQ, NE), which give 1 or 0. */
int binary_alg_is_cmp(tsr_alg_kind_t alg);

/* --attr-scales with src1 entries (binary_scales.c): the validator of
 * the option, one value applied to the problem (src and src0 entries to
 * attr, src1's to src1_scale), and the attribute part of the repro line
 * (attr_to_repro with the src1 entry in --attr-scales). */
int binary_scales_validate(const char *option, const char *value, char *err);
void binary_scales_apply(const char *value, bench_attr_t *attr,
                         bench_scale_t *src1_scale);
void binary_attr_repro(const bench_attr_t *attr,
                       const bench_scale_t *src1_scale, int canonical,
                       char *buf, size_t len);

void binary_prb_repro(const binary_prb_t *p, int canonical, char *buf,
                      size_t len);
int binary_bench(int ntokens, char **tokens);

/* The source values: ((12 i + 5 input + 16) % 17 + fmin) * 1.25 with fmin
 * 0 for u8 and -8 otherwise; input 0 and 1 are the sources (src1's zeros
 * become 1, so DIV never divides by 0), 2 the dst a sum post-op reads. */
float binary_fill_value(tsr_data_type_t dt, int input, int64_t i);

/* The scale of source `input` (0 or 1): 1 when the problem sets none, and
 * then 0 is returned. */
int binary_src_scale(const binary_prb_t *p, int input, float *scale);
/* The checks and the declared arguments both libraries share. */
typedef struct bench_args_run bench_args_run_t;
int binary_prepare(bench_args_run_t *r, res_t *res);
/* oneDNN's descriptors of the problem (binary_onednn.c, built with oneDNN
 * only). */
int binary_onednn_create(bench_args_run_t *r, res_t *res);

/* Reference (binary_run.c): dst = alg(scale0 * src0, scale1 * src1) with
 * both sources broadcast, then the post-ops. */
void binary_run_problem(const binary_prb_t *p, bench_lib_t lib,
                        const char *repro, res_t *res);

#endif
