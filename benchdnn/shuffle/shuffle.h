/* benchdnn shuffle driver (DRIVERS.md §13):
 *
 *   benchdnn --shuffle [--dir=FWD_D|BWD_D] [--dt=f32|bf16|f16|s32|s8|u8]
 *                      [--tag=abx] [--group=1] [--axis=1]
 *                      [--attr-scratchpad=..] D0xD1x...[_nNAME]
 *
 * With A the axis size and G the group: forward dst[(a % G) * (A / G) +
 * a / G] = src[a], backward the inverse from diff_dst to diff_src. As in
 * oneDNN v2.6.3 every BWD_* direction is backward data; FWD_I and FWD_B
 * are usage errors. Lists multiply in the order dir, dt, tag, group, axis,
 * attributes. A backward problem creates a forward-training primitive
 * descriptor as its hint, and runs no forward pass. */
#ifndef BENCHDNN_SHUFFLE_SHUFFLE_H
#define BENCHDNN_SHUFFLE_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/benchdnn.h"
#include "common/dims_desc.h"
#include "tessera.h"

#define SHUFFLE_TEXT_LEN 32

typedef struct {
    dims_desc_t desc;
    char dir[SHUFFLE_TEXT_LEN]; /* as given, upper case */
    int is_fwd;
    tsr_data_type_t dt;
    char dt_text[SHUFFLE_TEXT_LEN]; /* lower case */
    char unsupported[16];           /* a type name the library lacks */
    char tag[SHUFFLE_TEXT_LEN];
    int64_t group;
    int axis;
    bench_attr_t attr;
} shuffle_prb_t;

void shuffle_prb_repro(const shuffle_prb_t *p, int canonical, char *buf,
                       size_t len);
int shuffle_bench(int ntokens, char **tokens);

/* The input's value at dense index i (DRIVERS.md §13), before rounding to
 * the data type. */
float shuffle_fill_value(tsr_data_type_t dt, int64_t i);
/* Where the point at index `a` of the axis goes: forward or backward
 * permutation of an axis of `axis_size` points in groups of `group`. */
int64_t shuffle_ref_index(int is_fwd, int64_t axis_size, int64_t group,
                          int64_t a);
/* The checks and the declared arguments both libraries share. */
typedef struct bench_args_run bench_args_run_t;
int shuffle_prepare(bench_args_run_t *r, res_t *res);
/* oneDNN's descriptors of the problem (shuffle_onednn.c, built with
 * oneDNN only). */
int shuffle_onednn_create(bench_args_run_t *r, res_t *res);
/* Runs the problem on `lib`. */
void shuffle_run_problem(const shuffle_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res);

#endif
