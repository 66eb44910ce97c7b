/* The inner product driver: options, problems, the repro line, and the
 * loop. Lists multiply in the order of the option table, the later option
 * varying faster, the --attr-* lists fastest. The run itself is the shared
 * src x weights task (matmul/mm_task.h) with the library's inner product. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/checked_math.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "ip/ip.h"

static const char *const dir_names[] = {"FWD_B", "FWD_D", "FWD_I",
                                        "BWD_D", "BWD_W", "BWD_WB"};
#define N_DIRS ((int)(sizeof(dir_names) / sizeof(dir_names[0])))

static int str2dir(const char *s) {
    for (int i = 0; i < N_DIRS; i++)
        if (strcasecmp(s, dir_names[i]) == 0)
            return i;
    return -1;
}

static int validate_dir(const char *option, const char *value, char *err) {
    if (str2dir(value) >= 0)
        return 0;
    bench_set_err(err, "--%s: unknown direction '%s'", option, value);
    return -1;
}

static int validate_mb(const char *option, const char *value, char *err) {
    int64_t mb;
    if (parse_int_try(value, &mb) == 0 && mb >= 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a non-negative integer", option,
                  value);
    return -1;
}

enum {
    OPT_DIR = 0,
    OPT_DT,
    OPT_STAG,
    OPT_WTAG,
    OPT_DTAG,
    OPT_FPMATH,
    OPT_MB,
    OPT_COUNT
};

/* Defaults as oneDNN's ip driver has them. */
static const opt_def_t options[OPT_COUNT] = {
        {"dir", NULL, "FWD_B", validate_dir},
        {"dt", "cfg", "f32", mm_validate_dt},
        {"stag", NULL, "any", mm_validate_tag},
        {"wtag", NULL, "any", mm_validate_tag},
        {"dtag", NULL, "any", mm_validate_tag},
        {"attr-fpmath", NULL, "strict", mm_validate_fpmath},
        {"mb", NULL, "0", validate_mb},
};

/* The problem of one option combination, and its repro line. */
static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    const ip_desc_t *desc = desc_v;
    ip_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *desc;
    int64_t mb = 0;
    parse_int_try(v[OPT_MB], &mb);
    if (mb > 0)
        p->desc.mb = mb;
    p->dir = (ip_dir_t)str2dir(v[OPT_DIR]);
    mm_dt_cfg_parse_try(v[OPT_DT], &p->cfg, NULL);
    for (int t = 0; t < 3; t++)
        snprintf(p->tag[t], OPT_VALUE_LEN, "%s", v[OPT_STAG + t]);
    snprintf(p->fpmath, OPT_VALUE_LEN, "%s", v[OPT_FPMATH]);
    p->attr = *attr;
    ip_prb_repro(p, bench_settings.canonical, repro, len);
}

void ip_prb_repro(const ip_prb_t *p, int canonical, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--ip");
    if (canonical || p->dir != IP_FWD_B)
        bench_appendf(&l, " --dir=%s", dir_names[p->dir]);
    if (canonical || !bench_dt_cfg_is_default(&p->cfg))
        bench_appendf(&l, " --%s=%s", p->cfg.legacy ? "cfg" : "dt",
                      p->cfg.text);
    static const char *const tag_opts[3] = {"stag", "wtag", "dtag"};
    for (int t = 0; t < 3; t++)
        if (canonical || strcmp(p->tag[t], "any") != 0)
            bench_appendf(&l, " --%s=%s", tag_opts[t], p->tag[t]);
    if (canonical || strcmp(p->fpmath, "strict") != 0)
        bench_appendf(&l, " --attr-fpmath=%s", p->fpmath);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    ip_desc_print(&p->desc, canonical, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static int is_float(tsr_data_type_t dt) {
    return dt == tsr_f32 || dt == tsr_bf16 || dt == tsr_f16;
}

/* The problem on `lib`. */
static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    const ip_prb_t *p = prb;
    const ip_desc_t *d = &p->desc;
    if (p->dir != IP_FWD_B && p->dir != IP_FWD_D && p->dir != IP_FWD_I) {
        res->state = STATE_UNIMPLEMENTED;
        snprintf(res->reason, sizeof(res->reason), "%s: %s", dir_names[p->dir],
                 lib == BENCH_LIB_ONEDNN
                         ? "the harness' reference is forward only"
                         : "the library has forward inner product only");
        return;
    }
    mm_task_t t;
    memset(&t, 0, sizeof(t));
    t.is_ip = 1;
    t.ip_prop =
            p->dir == IP_FWD_I ? tsr_forward_inference : tsr_forward_training;
    const int64_t spatial[3] = {d->id, d->ih, d->iw};
    const int nsp = d->ndims - 2;
    t.src_ndims = t.wei_ndims = d->ndims;
    t.dst_ndims = 2;
    t.src_dims[0] = d->mb;
    t.src_dims[1] = t.wei_dims[1] = d->ic;
    t.wei_dims[0] = d->oc;
    for (int i = 0; i < nsp; i++)
        t.src_dims[2 + i] = t.wei_dims[2 + i] = spatial[3 - nsp + i];
    /* K = IC x spatial, a factor of src's element count: fits once src
     * does. */
    if (!bench_check_nelems("src", t.src_ndims, t.src_dims, res))
        return;
    t.K = bench_prod_i64_sat(t.src_dims + 1, t.src_ndims - 1);
    t.dst_dims[0] = d->mb;
    t.dst_dims[1] = d->oc;
    t.with_bias = p->dir == IP_FWD_B;
    t.bia_dims[0] = 1;
    t.bia_dims[1] = d->oc;
    t.cfg = p->cfg;
    t.bia_dt = is_float(p->cfg.dst) ? p->cfg.dst : tsr_f32;
    for (int i = 0; i < 3; i++)
        t.tag[i] = p->tag[i];
    t.attr = &p->attr;
    t.wei_oc_mask = 1;
    t.M = d->mb;
    t.N = d->oc;
    t.batch = 1;
    char desc[512];
    ip_desc_print(d, bench_settings.canonical, desc, sizeof(desc));
    const char *const option_tags[3] = {p->tag[0], p->tag[1], p->tag[2]};
    mm_task_run_described(&t, &ip_task_ops, lib, d->name, desc,
                          dir_names[p->dir], option_tags, d->mb, repro, res);
}

/* ------------------------------------------------------------------------ */
/* The loop (common/opt_driver.h) */

static int parse_desc(const char *text, void *desc, char *err) {
    return ip_desc_parse_try(text, desc, err);
}

int ip_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "ip",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(ip_desc_t),
            .prb_size = sizeof(ip_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
