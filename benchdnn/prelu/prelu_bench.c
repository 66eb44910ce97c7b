/* The prelu driver: options, problems, the repro line, and the loop
 * (common/opt_driver.h). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "binary/multi_opts.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "prelu/prelu.h"

/* v2.6.3 takes any direction and acts on its forward bit; FWD_I is v3's. */
static const char *const dir_names[] = {"FWD_D", "FWD_I",  "FWD_B", "BWD_D",
                                        "BWD_W", "BWD_WB", "BWD_DW"};
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

/* One value stands for both tensors (v3.x), or SRC:WEI. */
static int validate_sdt(const char *option, const char *value, char *err) {
    return multi_opt_validate_dts(option, value, 1, 2, err);
}

static int validate_stag(const char *option, const char *value, char *err) {
    return multi_opt_validate_tags(option, value, 1, 2, err);
}

enum { OPT_DIR = 0, OPT_SDT, OPT_STAG, OPT_COUNT };

static const opt_def_t options[OPT_COUNT] = {
        {"dir", NULL, "FWD_D", validate_dir},
        {"sdt", NULL, "f32:f32", validate_sdt},
        {"stag", NULL, "abx:any", validate_stag},
};

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    prelu_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const multi_dims_desc_t *)desc_v;
    const int dir = str2dir(v[OPT_DIR]);
    snprintf(p->dir, sizeof(p->dir), "%s", dir_names[dir]);
    p->is_fwd = dir_names[dir][0] == 'F';
    p->is_inference = dir == 1;

    snprintf(p->sdt, sizeof(p->sdt), "%s", v[OPT_SDT]);
    for (char *c = p->sdt; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (multi_opt_dts(p->sdt, p->dt, p->unsupported) == 1)
        p->dt[1] = p->dt[0];

    snprintf(p->stag, sizeof(p->stag), "%s", v[OPT_STAG]);
    if (multi_opt_split(p->stag, p->tag, 2) == 1)
        snprintf(p->tag[1], sizeof(p->tag[1]), "%s", p->tag[0]);
    p->attr = *attr;
    prelu_prb_repro(p, bench_settings.canonical, repro, len);
}

void prelu_prb_repro(const prelu_prb_t *p, int canonical, char *buf,
                     size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--prelu");
    if (canonical || strcmp(p->dir, "FWD_D") != 0)
        bench_appendf(&l, " --dir=%s", p->dir);
    const int default_dt =
            !p->unsupported[0] && p->dt[0] == tsr_f32 && p->dt[1] == tsr_f32;
    if (canonical || !default_dt)
        bench_appendf(&l, " --sdt=%s", p->sdt);
    const int default_tag =
            !strcmp(p->tag[0], "abx") && !strcmp(p->tag[1], "any");
    if (canonical || !default_tag)
        bench_appendf(&l, " --stag=%s", p->stag);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    multi_dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    prelu_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return multi_dims_desc_parse_try(text, "prelu", 2, 2, desc, err);
}

int prelu_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "prelu",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(multi_dims_desc_t),
            .prb_size = sizeof(prelu_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
