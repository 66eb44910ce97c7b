/* benchdnn matmul driver:
 *
 *   benchdnn --matmul [--dt=..|--cfg=..] [--stag=..] [--wtag=..] [--dtag=..]
 *                     [--strides=SRC:WEI:DST] [--bia-dt=..] [--bia_mask=M]
 *                     [--runtime_dims_masks=S:W] [--attr-*=..] DESCRIPTOR...
 *
 * Descriptor: d0x..xMxK:d0x..xKxN[:d0x..xMxN][_nNAME], 2 to 6 dims, all
 * tensors of the same rank; a batch dim of 1 in src or weights broadcasts;
 * dst, when given, must be what src and weights imply. */
#ifndef BENCHDNN_MATMUL_MATMUL_H
#define BENCHDNN_MATMUL_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/opt_lists.h"
#include "matmul/mm_task.h"

#define MATMUL_NAME_LEN 128

typedef struct {
    int ndims;
    int64_t src[MM_MAX_NDIMS], wei[MM_MAX_NDIMS], dst[MM_MAX_NDIMS];
    int has_dst; /* dst was written */
    char name[MATMUL_NAME_LEN];
} matmul_desc_t;

/* Parses `str`. Returns 0, or -1 with a message naming the text in err
 * (BENCH_ERR_LEN bytes); desc is written only on success. */
int matmul_desc_parse_try(const char *str, matmul_desc_t *desc, char *err);
/* "2x3x4:1x4x5" (+ ":dst" when it was written or canonical) + name. */
void matmul_desc_print(const matmul_desc_t *d, int canonical, char *buf,
                       size_t len);

/* --strides=S:W:D, each part empty or ndims strides joined by 'x'. */
typedef struct {
    int has[3];
    int64_t v[3][MM_MAX_NDIMS];
    int n[3];
} matmul_strides_t;

int matmul_strides_parse_try(const char *value, matmul_strides_t *s, char *err);

typedef struct {
    matmul_desc_t desc;
    bench_dt_cfg_t cfg;
    tsr_data_type_t bia_dt; /* undef: no bias */
    char bia_unsupported[16];
    int bia_mask;
    char tag[3][OPT_VALUE_LEN];
    char strides_text[OPT_VALUE_LEN];
    matmul_strides_t strides;
    char runtime_dims_masks[OPT_VALUE_LEN];
    char fpmath[OPT_VALUE_LEN];
    bench_attr_t attr;
} matmul_prb_t;

/* The command line reproducing the problem. */
void matmul_prb_repro(const matmul_prb_t *p, int canonical, char *buf,
                      size_t len);

int matmul_bench(int ntokens, char **tokens);

/* The task's run with the matmul's descriptors (matmul_run.c), and oneDNN's
 * (matmul_onednn.c, built with oneDNN). */
extern const bench_args_ops_t matmul_task_ops;
int matmul_onednn_create(bench_args_run_t *r, res_t *res);

#endif
