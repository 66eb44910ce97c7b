/* The binary driver: algorithms, options, problems, the repro line, and
 * the loop (common/opt_driver.h). */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binary/binary.h"
#include "binary/multi_opts.h"
#include "common/layout_tag.h"
#include "common/opt_driver.h"
#include "common/parser.h"

tsr_alg_kind_t binary_alg_find(const char *s) {
    if (strncasecmp(s, "binary_", 7) == 0)
        s += 7;
    char name[16];
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof(name); n++)
        name[n] = (char)tolower((unsigned char)s[n]);
    if (s[n])
        return tsr_alg_kind_undef;
    name[n] = '\0';
    return str2binary_alg(name);
}

int binary_alg_is_cmp(tsr_alg_kind_t alg) {
    return alg == tsr_binary_ge || alg == tsr_binary_gt ||
           alg == tsr_binary_le || alg == tsr_binary_lt ||
           alg == tsr_binary_eq || alg == tsr_binary_ne;
}

static int validate_sdt(const char *option, const char *value, char *err) {
    return multi_opt_validate_dts(option, value, 2, 2, err);
}

static int validate_ddt(const char *option, const char *value, char *err) {
    return multi_opt_validate_dts(option, value, 1, 1, err);
}

static int validate_stag(const char *option, const char *value, char *err) {
    return multi_opt_validate_tags(option, value, 2, 2, err);
}

static int validate_dtag(const char *option, const char *value, char *err) {
    return multi_opt_validate_tags(option, value, 1, 1, err);
}

static int validate_alg(const char *option, const char *value, char *err) {
    if (binary_alg_find(value) != tsr_alg_kind_undef)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a binary algorithm", option, value);
    attr_append_alg_hint(err, value, ALG_HINT_BINARY);
    return -1;
}

static int validate_bool(const char *option, const char *value, char *err) {
    int b;
    if (parse_bool_try(value, &b) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not true or false", option, value);
    return -1;
}

enum {
    OPT_SDT = 0,
    OPT_DDT,
    OPT_STAG,
    OPT_DTAG,
    OPT_ALG,
    OPT_SCALES,
    OPT_INPLACE,
    OPT_COUNT
};

#define SCALES_TOKEN "--binary-attr-scales"

/* In oneDNN's iteration order; --inplace varies after the attributes. */
static const opt_def_t options[OPT_COUNT] = {
        {"sdt", NULL, "f32:f32", validate_sdt},
        {"ddt", NULL, "f32", validate_ddt},
        {"stag", NULL, "abx:abx", validate_stag},
        {"dtag", NULL, "any", validate_dtag},
        {"alg", NULL, "ADD", validate_alg},
        /* The token --attr-scales, renamed by binary_bench; between --alg
         * and the common attributes in the iteration order. */
        {"attr-scales", &SCALES_TOKEN[2], "", binary_scales_validate},
        {"inplace", NULL, "false", validate_bool},
};

static void lower_copy(char *dst, size_t len, const char *src) {
    snprintf(dst, len, "%s", src);
    for (char *c = dst; *c; c++)
        *c = (char)tolower((unsigned char)*c);
}

static void make_prb(const void *desc_v, const char *const *v,
                     const bench_attr_t *attr, void *prb, char *repro,
                     size_t len) {
    binary_prb_t *p = prb;
    memset(p, 0, sizeof(*p));
    p->desc = *(const multi_dims_desc_t *)desc_v;
    multi_dims_desc_max_dims(&p->desc, p->dst_dims);
    lower_copy(p->sdt_text, sizeof(p->sdt_text), v[OPT_SDT]);
    lower_copy(p->ddt_text, sizeof(p->ddt_text), v[OPT_DDT]);
    char unsupported[16];
    multi_opt_dts(p->sdt_text, p->sdt, p->unsupported);
    multi_opt_dts(p->ddt_text, &p->ddt, unsupported);
    if (!p->unsupported[0])
        snprintf(p->unsupported, sizeof(p->unsupported), "%s", unsupported);
    snprintf(p->stag_text, sizeof(p->stag_text), "%s", v[OPT_STAG]);
    multi_opt_split(p->stag_text, p->stag, 2);
    snprintf(p->dtag, sizeof(p->dtag), "%s", v[OPT_DTAG]);
    p->alg = binary_alg_find(v[OPT_ALG]);
    parse_bool_try(v[OPT_INPLACE], &p->inplace);
    p->attr = *attr;
    binary_scales_apply(v[OPT_SCALES], &p->attr, &p->src1_scale);
    binary_prb_repro(p, bench_settings.canonical, repro, len);
}

void binary_prb_repro(const binary_prb_t *p, int canonical, char *buf,
                      size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    bench_appendf(&l, "--binary");
    const int f32_sdt =
            !p->unsupported[0] && p->sdt[0] == tsr_f32 && p->sdt[1] == tsr_f32;
    if (canonical || !f32_sdt)
        bench_appendf(&l, " --sdt=%s", p->sdt_text);
    if (canonical || strcmp(p->ddt_text, "f32") != 0)
        bench_appendf(&l, " --ddt=%s", p->ddt_text);
    if (canonical || strcmp(p->stag[0], "abx") || strcmp(p->stag[1], "abx"))
        bench_appendf(&l, " --stag=%s", p->stag_text);
    if (canonical || strcmp(p->dtag, "any") != 0)
        bench_appendf(&l, " --dtag=%s", p->dtag);
    if (canonical || p->alg != tsr_binary_add)
        bench_appendf(&l, " --alg=%s", tsr_alg_kind2str(p->alg));
    if (canonical || p->inplace)
        bench_appendf(&l, " --inplace=%s", p->inplace ? "true" : "false");
    char attr[1024] = "";
    binary_attr_repro(&p->attr, &p->src1_scale, canonical, attr, sizeof(attr));
    bench_appendf(&l, "%s", attr);
    char desc[512];
    multi_dims_desc_print(&p->desc, desc, sizeof(desc));
    bench_appendf(&l, " %s", desc);
}

static void run_problem(const void *prb, bench_lib_t lib, const char *repro,
                        res_t *res) {
    binary_run_problem(prb, lib, repro, res);
}

static int parse_desc(const char *text, void *desc, char *err) {
    return multi_dims_desc_parse_try(text, "binary", 2, 2, desc, err);
}

/* SCALES_TOKEN=VALUE, where an empty item of the list (the default, as the
 * common attribute lists read it) becomes the explicit "src:none". */
static char *rename_scales_token(const char *value) {
    const size_t len = strlen(SCALES_TOKEN) + 2 + 9 * (strlen(value) + 1);
    char *tok = malloc(len);
    if (!tok)
        bench_usage_error("out of memory");
    bench_line_t l = {tok, len, 0};
    bench_appendf(&l, "%s=", SCALES_TOKEN);
    for (const char *p = value; *value;) {
        const size_t n = strcspn(p, ",");
        if (n)
            bench_appendf(&l, "%.*s", (int)n, p);
        else
            bench_appendf(&l, "src:none");
        if (!p[n])
            break;
        bench_appendf(&l, ",");
        p += n + 1;
    }
    return tok;
}

/* The driver's tokens: those it renamed are its own. */
typedef struct {
    int n;
    char **original, **toks;
} renamed_tokens_t;

static void renamed_tokens_free(void *arg) {
    renamed_tokens_t *r = arg;
    for (int i = 0; i < r->n; i++)
        if (r->toks[i] != r->original[i])
            free(r->toks[i]);
    free(r->toks);
}

int binary_bench(int ntokens, char **tokens) {
    static const opt_driver_t driver = {
            .name = "binary",
            .defs = options,
            .ndefs = OPT_COUNT,
            .after_attr_from = OPT_INPLACE,
            .desc_size = sizeof(multi_dims_desc_t),
            .prb_size = sizeof(binary_prb_t),
            .parse_desc = parse_desc,
            .make_prb = make_prb,
            .run = run_problem,
    };
    /* --attr-scales goes to the driver's own option (src1 entries), not
     * to the common attribute lists. */
    renamed_tokens_t renamed = {
            .n = ntokens,
            .original = tokens,
            .toks = calloc((size_t)ntokens + 1, sizeof(char *)),
    };
    char **toks = renamed.toks;
    if (!toks)
        bench_usage_error("out of memory");
    bench_cleanup_push(renamed_tokens_free, &renamed);
    for (int i = 0; i < ntokens; i++) {
        const char *scales = parse_option_value(tokens[i], "attr-scales");
        toks[i] = scales ? rename_scales_token(scales) : tokens[i];
        /* v2.x's all-in-one attribute option still parses
         * (common/attr_lists.c) but is on its way out. */
        if (parse_option_value(tokens[i], "attr"))
            fprintf(stderr,
                    "benchdnn: WARNING: '%s': --attr is deprecated, use "
                    "--attr-scales and --attr-post-ops\n",
                    tokens[i]);
    }
    const int rc = opt_driver_bench(&driver, ntokens, toks);
    bench_cleanup_pop(1);
    return rc;
}
