/* The zeropad driver: options, problems, the repro line and the loop
 * (common/opt_driver.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/dt_cfg.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "common/parser.h"
#include "zeropad/zeropad.h"

static int parse_dt(const char *value, bench_dt_cfg_t *cfg) {
    return strchr(value, ':') ? -1
                              : bench_dt_cfg_parse_try(value, 0, cfg, NULL);
}

static int validate_dt(const char *option, const char *value, char *err) {
    bench_dt_cfg_t cfg;
    if (parse_dt(value, &cfg) == 0)
        return 0;
    bench_set_err(err,
                  "--%s: '%s' is not a data type (f32, bf16, f16, s32, s8, "
                  "u8)",
                  option, value);
    return -1;
}

static int validate_tag(const char *option, const char *value, char *err) {
    if (strcmp(value, "any") != 0 && bench_tag_is_valid(value))
        return 0;
    return bench_tag_error(err, option, value);
}

enum { OPT_DT = 0, OPT_TAG, OPT_COUNT };

static const opt_def_t options[OPT_COUNT] = {
        {"dt", NULL, "f32", validate_dt},
        {"tag", NULL, "abx", validate_tag},
};

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    /* The shared token loop takes --attr-* options; zeropad has no
     * primitive to give them to. */
    char attr_text[1024] = "";
    attr_to_repro(attr, 0, attr_text, sizeof(attr_text));
    if (attr_text[0])
        bench_usage_error("zeropad takes no attributes, got '%s'",
                          attr_text + 1);
    zeropad_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const dims_desc_t *)desc_v;
    bench_dt_cfg_t cfg;
    parse_dt(v[OPT_DT], &cfg);
    p->dt = cfg.src;
    snprintf(p->dt_text, sizeof(p->dt_text), "%s", v[OPT_DT]);
    for (char *c = p->dt_text; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    snprintf(p->tag, sizeof(p->tag), "%s", v[OPT_TAG]);
    zeropad_prb_repro(p, bench_settings.canonical, repro, len);
}

void zeropad_prb_repro(const zeropad_prb_t *p, int canonical, char *buf,
                       size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--zeropad");
    if (canonical || strcmp(p->dt_text, "f32") != 0)
        bench_appendf(&l, " --dt=%s", p->dt_text);
    if (canonical || strcmp(p->tag, "abx") != 0)
        bench_appendf(&l, " --tag=%s", p->tag);
    char desc[512];
    dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    if (lib == BENCH_LIB_ONEDNN) {
        snprintf(res->reason, sizeof(res->reason),
                 "oneDNN keeps its zero padding function internal");
        res->state = STATE_SKIPPED;
        return;
    }
    zeropad_run_problem(prb, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return dims_desc_parse_try(text, "zeropad", desc, err);
}

int zeropad_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "zeropad",
            .defs = options,
            .ndefs = OPT_COUNT,
            .desc_size = sizeof(dims_desc_t),
            .prb_size = sizeof(zeropad_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    return opt_driver_bench(&driver, ntokens, tokens);
}
