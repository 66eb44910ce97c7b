/* --attr-* options: parsing of both the v2.x and v3.x syntaxes, and repro
 * strings that parse back to the same attributes. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "attr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchdnn.h"
#include "cli_help.h"
#include "parser.h"

/* Longest option value handled (longer text is a usage error). */
#define ATTR_TEXT_MAX 1024
#define MAX_FIELDS 8

typedef struct {
    const char *name;
    tsr_alg_kind_t alg;
} alg_name_t;

/* The first name of an algorithm is the one repro lines print; later
 * ones are older spellings oneDNN batch files still use. */
static const alg_name_t eltwise_names[] = {
        {"relu", tsr_eltwise_relu},
        {"tanh", tsr_eltwise_tanh},
        {"elu", tsr_eltwise_elu},
        {"square", tsr_eltwise_square},
        {"abs", tsr_eltwise_abs},
        {"sqrt", tsr_eltwise_sqrt},
        {"linear", tsr_eltwise_linear},
        {"bounded_relu", tsr_eltwise_bounded_relu},
        {"soft_relu", tsr_eltwise_soft_relu},
        {"logistic", tsr_eltwise_logistic},
        {"exp", tsr_eltwise_exp},
        {"gelu_tanh", tsr_eltwise_gelu_tanh},
        {"swish", tsr_eltwise_swish},
        {"log", tsr_eltwise_log},
        {"clip", tsr_eltwise_clip},
        {"clip_v2", tsr_eltwise_clip_v2},
        {"pow", tsr_eltwise_pow},
        {"gelu_erf", tsr_eltwise_gelu_erf},
        {"round", tsr_eltwise_round},
        {"logsigmoid", tsr_eltwise_logsigmoid},
        {"mish", tsr_eltwise_mish},
        {"hardswish", tsr_eltwise_hardswish},
        {"hardsigmoid", tsr_eltwise_hardsigmoid},
        {"brelu", tsr_eltwise_bounded_relu},
        {"srelu", tsr_eltwise_soft_relu},
        {"gelu", tsr_eltwise_gelu_tanh},
};

static const alg_name_t binary_names[] = {
        {"add", tsr_binary_add}, {"mul", tsr_binary_mul},
        {"max", tsr_binary_max}, {"min", tsr_binary_min},
        {"div", tsr_binary_div}, {"sub", tsr_binary_sub},
        {"ge", tsr_binary_ge},   {"gt", tsr_binary_gt},
        {"le", tsr_binary_le},   {"lt", tsr_binary_lt},
        {"eq", tsr_binary_eq},   {"ne", tsr_binary_ne},
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static tsr_alg_kind_t find_alg(const alg_name_t *table, size_t n,
                               const char *s) {
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(table[i].name, s) == 0)
            return table[i].alg;
    return tsr_alg_kind_undef;
}

static const char *alg_name(tsr_alg_kind_t alg) {
    for (size_t i = 0; i < COUNT_OF(eltwise_names); i++)
        if (eltwise_names[i].alg == alg)
            return eltwise_names[i].name;
    for (size_t i = 0; i < COUNT_OF(binary_names); i++)
        if (binary_names[i].alg == alg)
            return binary_names[i].name;
    return "undef";
}

tsr_alg_kind_t str2eltwise_alg(const char *s) {
    return find_alg(eltwise_names, COUNT_OF(eltwise_names), s);
}

tsr_alg_kind_t str2binary_alg(const char *s) {
    return find_alg(binary_names, COUNT_OF(binary_names), s);
}

void attr_append_alg_hint(char *err, const char *word, int which) {
    const char *names[COUNT_OF(eltwise_names) + COUNT_OF(binary_names) + 2];
    int n = 0;
    if (which == ALG_HINT_POST_OPS) {
        names[n++] = "sum";
        names[n++] = "prelu";
    }
    if (which & ALG_HINT_ELTWISE)
        for (size_t i = 0; i < COUNT_OF(eltwise_names); i++)
            names[n++] = eltwise_names[i].name;
    if (which & ALG_HINT_BINARY)
        for (size_t i = 0; i < COUNT_OF(binary_names); i++)
            names[n++] = binary_names[i].name;
    bench_append_value_hint(err, word, names, n, 1);
}

/* In bench_policy_t order. */
static const char *const policy_names[] = {
        "common",     "per_oc",      "per_dim_0", "per_dim_1",
        "per_dim_01", "per_tensor",  "per_dim_2", "per_dim_3",
        "per_dim_23", "per_dim_023", "per_dim_03"};

const char *policy2str(bench_policy_t p) {
    return (unsigned)p < COUNT_OF(policy_names) ? policy_names[p] : "undef";
}

static int str2policy(const char *s, bench_policy_t *p) {
    for (size_t i = 0; i < COUNT_OF(policy_names); i++) {
        if (strcmp(policy_names[i], s) == 0) {
            *p = (bench_policy_t)i;
            return 0;
        }
    }
    return -1;
}

/* Data type names, the harness' own table (the attribute parser must not
 * depend on the library being right). */
static const struct {
    const char *name;
    tsr_data_type_t dt;
} dt_names[] = {{"f32", tsr_f32}, {"bf16", tsr_bf16}, {"f16", tsr_f16},
                {"s32", tsr_s32}, {"s8", tsr_s8},     {"u8", tsr_u8}};

static tsr_data_type_t str2dt(const char *s) {
    for (size_t i = 0; i < COUNT_OF(dt_names); i++)
        if (strcmp(dt_names[i].name, s) == 0)
            return dt_names[i].dt;
    return tsr_data_type_undef;
}

static const char *dt2str(tsr_data_type_t dt) {
    for (size_t i = 0; i < COUNT_OF(dt_names); i++)
        if (dt_names[i].dt == dt)
            return dt_names[i].name;
    return "undef";
}

static const char *const qarg_names[QARG_COUNT] = {"src", "wei", "dst"};

static int str2qarg(const char *s, bench_qarg_t *arg) {
    if (!strcmp(s, "src") || !strcmp(s, "src0"))
        *arg = QARG_SRC;
    else if (!strcmp(s, "wei"))
        *arg = QARG_WEI;
    else if (!strcmp(s, "dst"))
        *arg = QARG_DST;
    else
        return -1;
    return 0;
}

void bench_attr_init(bench_attr_t *attr) {
    memset(attr, 0, sizeof(*attr));
    attr->round_mode = tsr_round_nearest;
    attr->oscale.scale = 1;
    for (int i = 0; i < QARG_COUNT; i++)
        attr->scales[i].scale = 1;
}

/* Copies `value` into buf without surrounding quotes (batch files and
 * shells pass "'sum;relu'" and the like). */
static int unquote(const char *value, char *buf, char *err, const char *opt) {
    size_t len = strlen(value);
    if (len >= ATTR_TEXT_MAX) {
        bench_set_err(err, "%s: value too long", opt);
        return -1;
    }
    while (len >= 2 && (value[0] == '\'' || value[0] == '"') &&
           value[len - 1] == value[0]) {
        value++;
        len -= 2;
    }
    memcpy(buf, value, len);
    buf[len] = '\0';
    return 0;
}

/* Splits s in place at `sep`; returns the number of fields or -1. */
static int split_fields(char *s, char sep, char **fields, int max) {
    int n = 0;
    for (char *p = s;;) {
        if (n == max)
            return -1;
        fields[n++] = p;
        char *next = strchr(p, sep);
        if (!next)
            break;
        *next = '\0';
        p = next + 1;
    }
    return n;
}

/* "SCALE" or "SCALE*" (the star: value passed at execution). */
static int parse_scale_text(const char *s, float *scale, int *runtime) {
    char buf[64];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len + 1);
    *runtime = buf[len - 1] == '*';
    if (*runtime)
        buf[len - 1] = '\0';
    return parse_float_try(buf, scale) != 0 || !isfinite(*scale) ? -1 : 0;
}

static int parse_zp_text(const char *s, int32_t *zp, int *runtime) {
    char buf[64];
    size_t len = strlen(s);
    int64_t v;
    if (len == 0 || len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len + 1);
    *runtime = buf[len - 1] == '*';
    if (*runtime)
        buf[len - 1] = '\0';
    if (parse_int_try(buf, &v) != 0 || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *zp = (int32_t)v;
    return 0;
}

int attr_try_parse_scratchpad(bench_attr_t *attr, const char *value,
                              char *err) {
    if (!strcmp(value, "library") || !*value)
        attr->scratchpad_user = 0;
    else if (!strcmp(value, "user"))
        attr->scratchpad_user = 1;
    else {
        bench_set_err(err,
                      "--attr-scratchpad: expected library or user, got '%s'",
                      value);
        return -1;
    }
    return 0;
}

int attr_try_parse_round_mode(bench_attr_t *attr, const char *value,
                              char *err) {
    if (!strcmp(value, "nearest") || !*value)
        attr->round_mode = tsr_round_nearest;
    else if (!strcmp(value, "down"))
        attr->round_mode = tsr_round_down;
    else {
        bench_set_err(err,
                      "--attr-round-mode: expected nearest or down, got '%s'",
                      value);
        return -1;
    }
    return 0;
}

/* "POLICY[:SCALE[*]]"; "none" (v2.x) means no output scales. */
int attr_try_parse_oscale(bench_attr_t *attr, const char *value, char *err) {
    char buf[ATTR_TEXT_MAX];
    char *f[MAX_FIELDS] = {0};
    bench_scale_t s = {.set = 1, .policy = POLICY_COMMON, .scale = 1};
    if (unquote(value, buf, err, "--attr-oscale") != 0)
        return -1;
    if (!*buf || !strcmp(buf, "none")) {
        attr->oscale = (bench_scale_t){.scale = 1};
        return 0;
    }
    int n = split_fields(buf, ':', f, MAX_FIELDS);
    if (n < 1 || n > 2 || str2policy(f[0], &s.policy) != 0 ||
        (n == 2 && parse_scale_text(f[1], &s.scale, &s.runtime))) {
        bench_set_err(err,
                      "--attr-oscale: expected POLICY[:SCALE[*]], got '%s'",
                      value);
        return -1;
    }
    attr->oscale = s;
    return 0;
}

/* Splits a per-argument list in place: items are joined by '+' (v3.x) or
 * by '_' before an argument name (v2.x: "src:common:2_dst:common:1"). */
static int split_qarg_items(char *s, char **items, int max) {
    static const char *const arg_prefixes[] = {"src:", "src0:", "wei:", "dst:"};
    int n = 0;
    items[n++] = s;
    for (char *p = s; *p; p++) {
        int split = *p == '+';
        for (size_t i = 0; !split && *p == '_' && i < COUNT_OF(arg_prefixes);
             i++)
            split = !strncmp(p + 1, arg_prefixes[i], strlen(arg_prefixes[i]));
        if (!split)
            continue;
        if (n == max)
            return -1;
        *p = '\0';
        items[n++] = p + 1;
    }
    return n;
}

/* "ARG:POLICY[:SCALE[*]][+...]" */
int attr_try_parse_scales(bench_attr_t *attr, const char *value, char *err) {
    char buf[ATTR_TEXT_MAX];
    char *items[MAX_FIELDS] = {0};
    bench_scale_t scales[QARG_COUNT];
    if (unquote(value, buf, err, "--attr-scales") != 0)
        return -1;
    memcpy(scales, attr->scales, sizeof(scales));
    if (!*buf) { /* empty: back to no scales */
        for (int i = 0; i < QARG_COUNT; i++)
            scales[i] = (bench_scale_t){.scale = 1};
        memcpy(attr->scales, scales, sizeof(scales));
        return 0;
    }
    int n = split_qarg_items(buf, items, MAX_FIELDS);
    for (int i = 0; i < n; i++) {
        char *f[MAX_FIELDS] = {0};
        bench_qarg_t arg;
        bench_scale_t s = {.set = 1, .scale = 1};
        int nf = split_fields(items[i], ':', f, MAX_FIELDS);
        int ok = nf >= 2 && nf <= 3 && str2qarg(f[0], &arg) == 0;
        if (ok && !strcmp(f[1], "none"))
            s.set = 0;
        else
            ok = ok && str2policy(f[1], &s.policy) == 0;
        ok = ok &&
             (nf < 3 || parse_scale_text(f[2], &s.scale, &s.runtime) == 0);
        if (!ok) {
            bench_set_err(err,
                          "--attr-scales: expected ARG:POLICY[:SCALE[*]][+...] "
                          "with ARG src, wei or dst, got '%s'",
                          value);
            return -1;
        }
        scales[arg] = s;
    }
    memcpy(attr->scales, scales, sizeof(scales));
    return 0;
}

/* "ARG:POLICY[:ZP[*]][+...]" (v3.x; the value may be left out for
 * per-channel policies) or "ARG:ZP[*][_...]" (v2.x, common). */
int attr_try_parse_zero_points(bench_attr_t *attr, const char *value,
                               char *err) {
    char buf[ATTR_TEXT_MAX];
    char *items[MAX_FIELDS] = {0};
    bench_zp_t zps[QARG_COUNT];
    if (unquote(value, buf, err, "--attr-zero-points") != 0)
        return -1;
    if (!*buf) {
        memset(attr->zero_points, 0, sizeof(attr->zero_points));
        return 0;
    }
    memcpy(zps, attr->zero_points, sizeof(zps));
    int n = split_qarg_items(buf, items, MAX_FIELDS);
    for (int i = 0; i < n; i++) {
        char *f[MAX_FIELDS] = {0};
        bench_qarg_t arg;
        bench_zp_t z = {.set = 1};
        int nf = split_fields(items[i], ':', f, MAX_FIELDS);
        int ok = nf >= 2 && nf <= 3 && str2qarg(f[0], &arg) == 0;
        if (ok && nf == 2 && str2policy(f[1], &z.policy) == 0) {
            /* ARG:POLICY: per-channel values derive from base 1; a common
             * zero point needs its value. */
            z.value = 1;
            ok = z.policy != POLICY_COMMON;
        } else if (ok && nf == 2) {
            ok = parse_zp_text(f[1], &z.value, &z.runtime) == 0;
        } else if (ok) {
            ok = str2policy(f[1], &z.policy) == 0 &&
                 parse_zp_text(f[2], &z.value, &z.runtime) == 0;
        }
        if (!ok) {
            bench_set_err(err,
                          "--attr-zero-points: expected ARG:POLICY:ZP[*][+...] "
                          "with ARG src, wei or dst, got '%s'",
                          value);
            return -1;
        }
        zps[arg] = z;
    }
    memcpy(attr->zero_points, zps, sizeof(zps));
    return 0;
}

/* oneDNN post-ops Tessera has no implementation for. */
static int is_unsupported_post_op(const char *name) {
    size_t len = strlen(name);
    if (!strcmp(name, "dw") || !strncmp(name, "dw_k", 4))
        return 1;
    if (len > 4 && !strcmp(name + len - 4, "_dst")) {
        char base[64];
        snprintf(base, sizeof(base), "%.*s", (int)(len - 4), name);
        return str2eltwise_alg(base) != tsr_alg_kind_undef;
    }
    return 0;
}

static int parse_opt_float(char **f, int nf, int i, float *v) {
    return i >= nf || parse_float_try(f[i], v) == 0 ? 0 : -1;
}

/* Binary src1 broadcast: a policy name or an integer mask (0..3). */
static int parse_binary_policy(const char *s, bench_policy_t *p) {
    static const bench_policy_t by_mask[] = {POLICY_COMMON, POLICY_PER_DIM_0,
                                             POLICY_PER_DIM_1,
                                             POLICY_PER_DIM_01};
    int64_t mask;
    if (str2policy(s, p) == 0)
        return 0;
    if (parse_int_try(s, &mask) == 0 && mask >= 0 && mask <= 3) {
        *p = by_mask[mask];
        return 0;
    }
    return -1;
}

static int parse_binary_tag(const char *s, char *tag, size_t len) {
    size_t n = strlen(s);
    if (n == 0 || n >= len)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return -1;
    memcpy(tag, s, n + 1);
    return 0;
}

/* One post-op entry; 0 or -1. */
static int parse_post_op(char *item, bench_post_op_t *po) {
    char text[sizeof(po->text)];
    char *f[MAX_FIELDS] = {0};
    snprintf(text, sizeof(text), "%s", item);
    int nf = split_fields(item, ':', f, MAX_FIELDS);
    if (nf < 1 || !*f[0])
        return -1;
    memset(po, 0, sizeof(*po));
    po->scale = 1;
    snprintf(po->tag, sizeof(po->tag), "any");
    const char *name = f[0];
    int64_t zp = 0;

    if (!strcmp(name, "sum")) {
        po->kind = tsr_post_op_sum;
        if (nf > 4 || parse_opt_float(f, nf, 1, &po->scale))
            return -1;
        /* v2.0 spelled sum:SCALE:DATA_TYPE, without a zero point. */
        if (nf == 3 && str2dt(f[2]) != tsr_data_type_undef) {
            po->dt = str2dt(f[2]);
            return 0;
        }
        if (nf > 2 &&
            (parse_int_try(f[2], &zp) != 0 || zp < INT32_MIN || zp > INT32_MAX))
            return -1;
        po->zero_point = (int32_t)zp;
        if (nf > 3 && (po->dt = str2dt(f[3])) == tsr_data_type_undef)
            return -1;
        return 0;
    }
    if ((po->alg = str2eltwise_alg(name)) != tsr_alg_kind_undef) {
        po->kind = tsr_post_op_eltwise;
        if (nf > 4 || parse_opt_float(f, nf, 1, &po->alpha) ||
            parse_opt_float(f, nf, 2, &po->beta) ||
            parse_opt_float(f, nf, 3, &po->scale))
            return -1;
        return 0;
    }
    if ((po->alg = str2binary_alg(name)) != tsr_alg_kind_undef) {
        po->kind = tsr_post_op_binary;
        if (nf < 2 || nf > 4 || (po->dt = str2dt(f[1])) == tsr_data_type_undef)
            return -1;
        if (nf > 2 && parse_binary_policy(f[2], &po->policy) != 0)
            return -1;
        if (nf > 3 && parse_binary_tag(f[3], po->tag, sizeof(po->tag)) != 0)
            return -1;
        return 0;
    }
    if (!strcmp(name, "prelu")) {
        po->kind = tsr_post_op_prelu;
        if (nf > 2 || (nf == 2 && str2policy(f[1], &po->policy) != 0))
            return -1;
        return 0;
    }
    if (is_unsupported_post_op(name)) {
        po->kind = tsr_post_op_undef;
        memcpy(po->text, text, sizeof(text));
        return 0;
    }
    return -1;
}

/* Splits a chain: ';' (v2.0) or '+' (later) between entries. A '+' in an
 * exponent ("1e+2") does not split. */
static int split_post_op_chain(char *s, char **items, int max) {
    int n = 0;
    const char sep = strchr(s, ';') ? ';' : '+';
    char *start = s;
    for (char *p = s;; p++) {
        int exponent = sep == '+' && *p == '+' && p - s >= 2 &&
                       (p[-1] == 'e' || p[-1] == 'E') &&
                       (isdigit((unsigned char)p[-2]) || p[-2] == '.');
        if (*p != '\0' && (*p != sep || exponent))
            continue;
        const int last = *p == '\0';
        *p = '\0';
        /* ';' lists often end with ';': empty entries are skipped there. */
        if (*start || sep == '+') {
            if (n == max)
                return -1;
            items[n++] = start;
        }
        if (last)
            break;
        start = p + 1;
    }
    return n;
}

int attr_try_parse_post_ops(bench_attr_t *attr, const char *value, char *err) {
    char buf[ATTR_TEXT_MAX];
    char *items[BENCH_MAX_POST_OPS + 1];
    bench_post_op_t ops[BENCH_MAX_POST_OPS];
    if (unquote(value, buf, err, "--attr-post-ops") != 0)
        return -1;
    int n = 0;
    if (*buf) {
        n = split_post_op_chain(buf, items, BENCH_MAX_POST_OPS + 1);
        if (n < 0 || n > BENCH_MAX_POST_OPS) {
            bench_set_err(err,
                          "--attr-post-ops: more than %d post-ops in "
                          "'%s'",
                          BENCH_MAX_POST_OPS, value);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        char entry[ATTR_TEXT_MAX];
        snprintf(entry, sizeof(entry), "%s", items[i]);
        if (parse_post_op(items[i], &ops[i]) != 0) {
            bench_set_err(err, "--attr-post-ops: bad post-op '%s' in '%s'",
                          entry, value);
            /* The kind, the entry up to its first ':'. */
            entry[strcspn(entry, ":")] = '\0';
            attr_append_alg_hint(err, entry, ALG_HINT_POST_OPS);
            return -1;
        }
    }
    attr->n_post_ops = n;
    memcpy(attr->post_ops, ops, (size_t)n * sizeof(ops[0]));
    return 0;
}

const char *attr_unsupported(const bench_attr_t *attr) {
    static _Thread_local char reason[96];
    for (int i = 0; i < attr->n_post_ops; i++) {
        if (attr->post_ops[i].kind == tsr_post_op_undef) {
            snprintf(reason, sizeof(reason), "post-op '%s' is not supported",
                     attr->post_ops[i].text);
            return reason;
        }
    }
    return NULL;
}

typedef int (*attr_try_fn)(bench_attr_t *, const char *, char *);

static void die_on_error(attr_try_fn fn, bench_attr_t *attr, const char *v) {
    char err[BENCH_ERR_LEN];
    if (fn(attr, v, err) != 0)
        bench_usage_error("%s", err);
}

void attr_parse_scratchpad(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_scratchpad, attr, value);
}
void attr_parse_oscale(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_oscale, attr, value);
}
void attr_parse_scales(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_scales, attr, value);
}
void attr_parse_zero_points(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_zero_points, attr, value);
}
void attr_parse_post_ops(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_post_ops, attr, value);
}
void attr_parse_round_mode(bench_attr_t *attr, const char *value) {
    die_on_error(attr_try_parse_round_mode, attr, value);
}

/* ------------------------------------------------------------------------ */
/* Repro strings                                                             */

static void appendf(char *buf, size_t len, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t len, const char *fmt, ...) {
    size_t used = strnlen(buf, len);
    if (used + 1 >= len)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf + used, len - used, fmt, args);
    va_end(args);
}

/* Shortest "%g" text that reads back as the same float. */
static const char *fmt_float(float v, char *buf, size_t len) {
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, len, "%.*g", prec, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    return buf;
}

static void post_op_to_str(const bench_post_op_t *po, char *buf, size_t len) {
    char a[32], b[32], c[32];
    buf[0] = '\0';
    switch (po->kind) {
    case tsr_post_op_sum:
        appendf(buf, len, "sum");
        if (po->scale != 1 || po->zero_point != 0 ||
            po->dt != tsr_data_type_undef)
            appendf(buf, len, ":%s", fmt_float(po->scale, a, sizeof(a)));
        if (po->zero_point != 0 || po->dt != tsr_data_type_undef)
            appendf(buf, len, ":%d", (int)po->zero_point);
        if (po->dt != tsr_data_type_undef)
            appendf(buf, len, ":%s", dt2str(po->dt));
        break;
    case tsr_post_op_eltwise:
        appendf(buf, len, "%s", alg_name(po->alg));
        if (po->alpha != 0 || po->beta != 0 || po->scale != 1)
            appendf(buf, len, ":%s", fmt_float(po->alpha, a, sizeof(a)));
        if (po->beta != 0 || po->scale != 1)
            appendf(buf, len, ":%s", fmt_float(po->beta, b, sizeof(b)));
        if (po->scale != 1)
            appendf(buf, len, ":%s", fmt_float(po->scale, c, sizeof(c)));
        break;
    case tsr_post_op_binary: {
        const int plain_tag = !po->tag[0] || !strcmp(po->tag, "any");
        appendf(buf, len, "%s:%s", alg_name(po->alg), dt2str(po->dt));
        if (po->policy != POLICY_COMMON || !plain_tag)
            appendf(buf, len, ":%s", policy2str(po->policy));
        if (!plain_tag)
            appendf(buf, len, ":%s", po->tag);
        break;
    }
    case tsr_post_op_prelu:
        appendf(buf, len, "prelu");
        if (po->policy != POLICY_COMMON)
            appendf(buf, len, ":%s", policy2str(po->policy));
        break;
    default:
        appendf(buf, len, "%s", po->text);
        break;
    }
}

static void scale_to_str(const bench_scale_t *s, char *buf, size_t len) {
    char v[32];
    snprintf(buf, len, "%s:%s%s", policy2str(s->policy),
             fmt_float(s->scale, v, sizeof(v)), s->runtime ? "*" : "");
}

void attr_to_repro(const bench_attr_t *attr, int canonical, char *buf,
                   size_t len) {
    char item[256];
    if (attr->scratchpad_user || canonical)
        appendf(buf, len, " --attr-scratchpad=%s",
                attr->scratchpad_user ? "user" : "library");
    if (attr->oscale.set) {
        scale_to_str(&attr->oscale, item, sizeof(item));
        appendf(buf, len, " --attr-oscale=%s", item);
    }
    const char *sep = " --attr-scales=";
    for (int i = 0; i < QARG_COUNT; i++) {
        if (!attr->scales[i].set)
            continue;
        scale_to_str(&attr->scales[i], item, sizeof(item));
        appendf(buf, len, "%s%s:%s", sep, qarg_names[i], item);
        sep = "+";
    }
    sep = " --attr-zero-points=";
    for (int i = 0; i < QARG_COUNT; i++) {
        const bench_zp_t *z = &attr->zero_points[i];
        if (!z->set)
            continue;
        appendf(buf, len, "%s%s:%s:%d%s", sep, qarg_names[i],
                policy2str(z->policy), (int)z->value, z->runtime ? "*" : "");
        sep = "+";
    }
    if (attr->n_post_ops > 0 || canonical) {
        appendf(buf, len, " --attr-post-ops=");
        for (int i = 0; i < attr->n_post_ops; i++) {
            post_op_to_str(&attr->post_ops[i], item, sizeof(item));
            appendf(buf, len, "%s%s", i ? "+" : "", item);
        }
    }
    if (attr->round_mode != tsr_round_nearest || canonical)
        appendf(buf, len, " --attr-round-mode=%s",
                attr->round_mode == tsr_round_down ? "down" : "nearest");
}
