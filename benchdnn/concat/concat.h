/* benchdnn concat driver (DRIVERS.md §11):
 *
 *   benchdnn --concat [--sdt=f32] [--ddt=f32] [--stag=abx[:abx...]]
 *                     [--dtag=undef|any|TAG] [--axis=1]
 *                     [--attr-scratchpad=..] A0xA1...:B0xB1...[:...][_nNAME]
 *
 * dst = the sources one after another along --axis; every other dim must
 * agree (a usage error naming the descriptor otherwise). One --stag value
 * stands for every source. --dtag=undef passes no dst descriptor: dst
 * takes the sources' type and --ddt is ignored. Lists multiply in the
 * order sdt, ddt, stag, dtag, axis, attributes. oneDNN v3's per-source
 * scales (--attr-scales=msrc0:...) are a usage error: the library's
 * concat has none. */
#ifndef BENCHDNN_CONCAT_CONCAT_H
#define BENCHDNN_CONCAT_CONCAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/dims_desc.h"
#include "sum/multi_src.h"
#include "tessera.h"

/* Multi-dims descriptor `A0xA1...:B0xB1...[:...][_nNAME]`: at least 2
 * tensors; ndims comes from the first, a later tensor with fewer dims is
 * padded with trailing 1s. Printed in the padded form. */
typedef struct {
    int n, ndims;
    int64_t dims[MULTI_SRC_MAX][TSR_MAX_NDIMS];
    char name[DIMS_DESC_NAME_LEN];
} concat_desc_t;

/* 0, or -1 with "bad WHAT descriptor 'STR': ..." in err. */
int concat_desc_parse_try(const char *str, const char *what,
                          concat_desc_t *desc, char *err);
void concat_desc_print(const concat_desc_t *d, char *buf, size_t len);

typedef struct {
    concat_desc_t desc;
    int axis;
    int64_t dst_dims[TSR_MAX_NDIMS];
    char sdt[MULTI_SRC_ITEM_LEN], ddt[MULTI_SRC_ITEM_LEN]; /* lower case */
    tsr_data_type_t sdt_dt, ddt_dt; /* ddt_dt: sdt_dt with dtag undef */
    multi_src_list_t stag;          /* one per source */
    char dtag[MULTI_SRC_ITEM_LEN];
    char unsupported[16]; /* a type name the library lacks, or "" */
    bench_attr_t attr;
} concat_prb_t;

void concat_prb_repro(const concat_prb_t *p, int canonical, char *buf,
                      size_t len);
int concat_bench(int ntokens, char **tokens);

/* Why the problem is not run (DRIVERS.md §11), or NULL. */
const char *concat_skip_reason(const concat_prb_t *p);
/* 0 when no dst descriptor is passed (--dtag=undef). */
int concat_has_dst_desc(const concat_prb_t *p);
/* What both libraries share before their descriptors: the skips and the
 * argument declarations; 0 with res set when the problem stops. */
int concat_prepare(bench_args_run_t *r, res_t *res);
/* The problem with oneDNN's descriptors (concat_onednn.c). */
int concat_onednn_create(bench_args_run_t *r, res_t *res);
/* Runs the problem on the library `lib` selects. */
void concat_run_problem(const concat_prb_t *p, bench_lib_t lib,
                        const char *repro, res_t *res);

#endif
