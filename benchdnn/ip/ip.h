/* benchdnn inner product driver:
 *
 *   benchdnn --ip [--dir=..] [--dt=..|--cfg=..] [--stag=..] [--wtag=..]
 *                 [--dtag=..] [--mb=N] [--attr-*=..] DESCRIPTOR...
 *
 * Descriptor: mbX icX [idX] [ihX] [iwX] ocX [nNAME], '_' allowed between
 * entries. mb defaults to 2; ic and oc are required. The spatial dims set
 * the src rank: id gives 3 spatial dims (ih, iw default to id), else ih
 * gives 2 (iw defaults to ih), else iw gives 1, else src is 2D (N x IC).
 * Bias (FWD_B) has the dst type when that is floating, f32 otherwise. */
#ifndef BENCHDNN_IP_IP_H
#define BENCHDNN_IP_IP_H

#include <stddef.h>
#include <stdint.h>

#include "common/attr.h"
#include "common/opt_lists.h"
#include "matmul/mm_task.h"

#define IP_NAME_LEN 128

typedef struct {
    int64_t mb, ic, oc;
    int64_t id, ih, iw; /* 1 when the problem lacks them */
    int ndims;          /* of src: 2 to 5 */
    char name[IP_NAME_LEN];
} ip_desc_t;

/* Parses `str`. Returns 0, or -1 with a message naming the text in err
 * (BENCH_ERR_LEN bytes); desc is written only on success. */
int ip_desc_parse_try(const char *str, ip_desc_t *desc, char *err);
/* mb (when not 2, or canonical), ic, the spatial dims the problem has, oc,
 * the name. Parsing the result gives back the same descriptor. */
void ip_desc_print(const ip_desc_t *d, int canonical, char *buf, size_t len);

typedef enum {
    IP_FWD_B = 0,
    IP_FWD_D,
    IP_FWD_I,
    IP_BWD_D,
    IP_BWD_W,
    IP_BWD_WB,
} ip_dir_t;

typedef struct {
    ip_desc_t desc; /* mb already replaced by --mb when given */
    ip_dir_t dir;
    bench_dt_cfg_t cfg;
    char tag[3][OPT_VALUE_LEN];
    char fpmath[OPT_VALUE_LEN];
    bench_attr_t attr;
} ip_prb_t;

void ip_prb_repro(const ip_prb_t *p, int canonical, char *buf, size_t len);

int ip_bench(int ntokens, char **tokens);

/* The task's run with the inner product's descriptors (ip_run.c), and oneDNN's
 * (ip_onednn.c, built with oneDNN). */
extern const bench_args_ops_t ip_task_ops;
int ip_onednn_create(bench_args_run_t *r, res_t *res);

#endif
