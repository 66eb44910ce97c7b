/* The convolution problem: option names, tensor shapes, operation count,
 * layout tags, and the repro line. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/checked_math.h"
#include "common/parser.h"
#include "conv/conv.h"

static const char *const dir_names[] = {"FWD_B", "FWD_D", "FWD_I",
                                        "BWD_D", "BWD_W", "BWD_WB"};

int conv_str2dir(const char *s) {
    for (int i = 0; i < (int)(sizeof(dir_names) / sizeof(dir_names[0])); i++)
        if (strcasecmp(s, dir_names[i]) == 0)
            return i;
    return -1;
}

const char *conv_dir2str(conv_dir_t dir) {
    return dir_names[dir];
}

/* Printed lower case, as oneDNN does; both spellings parse. */
static const char *const alg_names[] = {"direct", "wino", "auto"};
static const char *const alg_long_names[] = {
        "convolution_direct", "convolution_wino", "convolution_auto"};

int conv_str2alg(const char *s) {
    for (int i = 0; i < 3; i++)
        if (strcasecmp(s, alg_names[i]) == 0 ||
            strcasecmp(s, alg_long_names[i]) == 0)
            return i;
    return -1;
}

const char *conv_alg2str(conv_alg_t alg) {
    return alg_names[alg];
}

/* ------------------------------------------------------------------------ */
/* Shapes */

/* Appends the spatial values the problem has (the last ndims - 2). */
static int put_spatial(const conv_desc_t *d, const int64_t *v, int64_t *dims,
                       int at) {
    for (int i = CONV_NSPATIAL - (d->ndims - 2); i < CONV_NSPATIAL; i++)
        dims[at++] = v[i];
    return at;
}

int conv_src_dims(const conv_prb_t *p, int64_t *dims) {
    dims[0] = p->desc.mb;
    dims[1] = p->desc.ic;
    return put_spatial(&p->desc, p->desc.in, dims, 2);
}

int conv_wei_dims(const conv_prb_t *p, int64_t *dims) {
    const conv_desc_t *d = &p->desc;
    int n = 0;
    if (d->has_groups)
        dims[n++] = d->g;
    dims[n++] = d->oc / d->g;
    dims[n++] = d->ic / d->g;
    return put_spatial(d, d->ker, dims, n);
}

int conv_dst_dims(const conv_prb_t *p, int64_t *dims) {
    dims[0] = p->desc.mb;
    dims[1] = p->desc.oc;
    return put_spatial(&p->desc, p->desc.out, dims, 2);
}

/* Sizes are products of user dims: conv_prb_check_sizes accepts a problem
 * only when every one fits, so the accessors below saturate instead of
 * checking again. */
int conv_prb_check_sizes(const conv_prb_t *p, res_t *res) {
    int64_t dims[TSR_MAX_NDIMS];
    return bench_check_nelems("src", conv_src_dims(p, dims), dims, res) &&
           bench_check_nelems("wei", conv_wei_dims(p, dims), dims, res) &&
           bench_check_nelems("dst", conv_dst_dims(p, dims), dims, res);
}

int64_t conv_src_nelems(const conv_prb_t *p) {
    int64_t dims[TSR_MAX_NDIMS];
    return bench_prod_i64_sat(dims, conv_src_dims(p, dims));
}

int64_t conv_wei_nelems(const conv_prb_t *p) {
    int64_t dims[TSR_MAX_NDIMS];
    return bench_prod_i64_sat(dims, conv_wei_dims(p, dims));
}

int64_t conv_dst_nelems(const conv_prb_t *p) {
    int64_t dims[TSR_MAX_NDIMS];
    return bench_prod_i64_sat(dims, conv_dst_dims(p, dims));
}

int64_t conv_reduction_len(const conv_prb_t *p) {
    const conv_desc_t *d = &p->desc;
    const int64_t factors[] = {d->ic / d->g, d->ker[CONV_D], d->ker[CONV_H],
                               d->ker[CONV_W]};
    return bench_prod_i64_sat(factors, 4);
}

double conv_ops(const conv_prb_t *p) {
    const conv_desc_t *d = &p->desc;
    double ops = 2.0 * (double)d->mb * (double)d->oc;
    for (int i = 0; i < CONV_NSPATIAL; i++)
        ops *= (double)d->out[i];
    return ops * (double)conv_reduction_len(p);
}

double conv_harness_elems(const conv_prb_t *p) {
    return (double)conv_src_nelems(p) + (double)conv_wei_nelems(p) +
           (double)p->desc.oc + 4.0 * (double)conv_dst_nelems(p);
}

/* ------------------------------------------------------------------------ */
/* Repro */

void conv_prb_repro(const conv_prb_t *p, int canonical, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--conv");
    if (canonical || p->dir != CONV_FWD_B)
        bench_appendf(&l, " --dir=%s", conv_dir2str(p->dir));
    if (canonical || !bench_dt_cfg_is_default(&p->cfg))
        bench_appendf(&l, " --%s=%s", p->cfg.legacy ? "cfg" : "dt",
                      p->cfg.text);
    if (canonical || p->bia.unsupported[0] || p->bia.dt != tsr_f32)
        bench_appendf(&l, " --bia-dt=%s",
                      p->bia.unsupported[0] ? p->bia.unsupported
                                            : tsr_data_type2str(p->bia.dt));
    const char *const tag_options[] = {"stag", "wtag", "dtag"};
    const char *const tags[] = {p->stag, p->wtag, p->dtag};
    for (int i = 0; i < 3; i++)
        if (canonical || strcmp(tags[i], "any") != 0)
            bench_appendf(&l, " --%s=%s", tag_options[i], tags[i]);
    if (canonical || p->alg != CONV_ALG_DIRECT)
        bench_appendf(&l, " --alg=%s", conv_alg2str(p->alg));
    if (canonical || strcmp(p->fpmath, "strict") != 0)
        bench_appendf(&l, " --attr-fpmath=%s", p->fpmath);
    char attr[1024] = ""; /* attr_to_repro appends */
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    conv_desc_print(&p->desc, canonical, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}
