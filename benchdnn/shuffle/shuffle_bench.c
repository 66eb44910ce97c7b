/* The shuffle driver: options, problems, the repro line, and the loop
 * (common/opt_driver.h). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/dt_cfg.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "shuffle/shuffle.h"

/* v2.6.3 treats FWD_D as forward and every BWD_* as backward data, and
 * aborts on the other directions. */
static const char *const dir_names[] = {"FWD_D", "BWD_D", "BWD_W", "BWD_WB",
                                        "BWD_DW"};
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
    bench_set_err(err,
                  "--%s: shuffle takes FWD_D or a BWD_* direction, not '%s'",
                  option, value);
    return -1;
}

static int parse_dt(const char *value, bench_dt_cfg_t *cfg) {
    return strchr(value, ':') ? -1
                              : bench_dt_cfg_parse_try(value, 0, cfg, NULL);
}

static int validate_dt(const char *option, const char *value, char *err) {
    bench_dt_cfg_t cfg;
    if (strlen(value) < SHUFFLE_TEXT_LEN && parse_dt(value, &cfg) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a data type", option, value);
    return -1;
}

static int validate_tag(const char *option, const char *value, char *err) {
    if (strlen(value) < SHUFFLE_TEXT_LEN && strcmp(value, "any") != 0 &&
        bench_tag_is_valid(value))
        return 0;
    return bench_tag_error(err, option, value);
}

static int validate_group(const char *option, const char *value, char *err) {
    int64_t g;
    if (parse_int_try(value, &g) == 0 && g > 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a positive integer", option, value);
    return -1;
}

static int validate_axis(const char *option, const char *value, char *err) {
    int64_t axis;
    if (parse_int_try(value, &axis) == 0 && axis >= 0 && axis < TSR_MAX_NDIMS)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a dimension index", option, value);
    return -1;
}

enum { OPT_DIR = 0, OPT_DT, OPT_TAG, OPT_GROUP, OPT_AXIS, OPT_COUNT };

/* In oneDNN's iteration order. */
static const opt_def_t options[OPT_COUNT] = {
        {"dir", NULL, "FWD_D", validate_dir},
        {"dt", NULL, "f32", validate_dt},
        {"tag", NULL, "abx", validate_tag},
        {"group", NULL, "1", validate_group},
        {"axis", NULL, "1", validate_axis},
};

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    shuffle_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const dims_desc_t *)desc_v;
    const int dir = str2dir(v[OPT_DIR]);
    snprintf(p->dir, sizeof(p->dir), "%s", dir_names[dir]);
    p->is_fwd = dir == 0;
    bench_dt_cfg_t cfg;
    parse_dt(v[OPT_DT], &cfg);
    p->dt = cfg.src;
    snprintf(p->unsupported, sizeof(p->unsupported), "%s", cfg.unsupported);
    snprintf(p->dt_text, sizeof(p->dt_text), "%s", v[OPT_DT]);
    for (char *c = p->dt_text; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    snprintf(p->tag, sizeof(p->tag), "%s", v[OPT_TAG]);
    parse_int_try(v[OPT_GROUP], &p->group);
    int64_t axis = 0;
    parse_int_try(v[OPT_AXIS], &axis);
    p->axis = (int)axis;
    p->attr = *attr;
    shuffle_prb_repro(p, bench_settings.canonical, repro, len);
}

void shuffle_prb_repro(const shuffle_prb_t *p, int canonical, char *buf,
                       size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--shuffle");
    if (canonical || strcmp(p->dir, "FWD_D") != 0)
        bench_appendf(&l, " --dir=%s", p->dir);
    if (canonical || strcmp(p->dt_text, "f32") != 0)
        bench_appendf(&l, " --dt=%s", p->dt_text);
    if (canonical || strcmp(p->tag, "abx") != 0)
        bench_appendf(&l, " --tag=%s", p->tag);
    if (canonical || p->group != 1)
        bench_appendf(&l, " --group=%lld", (long long)p->group);
    if (canonical || p->axis != 1)
        bench_appendf(&l, " --axis=%d", p->axis);
    char attr[1024] = "";
    attr_to_repro(&p->attr, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    shuffle_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return dims_desc_parse_try(text, "shuffle", desc, err);
}

int shuffle_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "shuffle",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(dims_desc_t),
            .prb_size = sizeof(shuffle_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
