/* Verbose lines in the shape of oneDNN's, prefixed "tessera_verbose":
 *
 *   tessera_verbose,STAGE,cpu,PRIMITIVE,IMPL,PROP_KIND,MDS,ATTRS,AUX,PRB,MS
 *
 * MDS: per tensor NAME_DT:PROPS:FORMAT_KIND:TAG:STRIDES:FLAGS, space
 * separated (PROPS: "a" when the user asked for "any", "p" when the layout
 * is padded). ATTRS: space-separated attr-scratchpad, attr-round-mode,
 * attr-oscale, attr-scales, attr-zero-points, attr-post-ops entries
 * present when not default. AUX: "alg:convolution_direct" and the like.
 * PRB: benchdnn's problem form (mb2_ic3oc64_ih227oh55kh11sh4dh0ph0_...
 * for convolution, 2x16x7x7 for reorder).
 *
 * Level: TSR_VERBOSE (0, 1, 2, or oneDNN's words: none, profile_exec,
 * profile, all), overridden by tsr_set_verbose. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "convolution_pd.h"
#include "inner_product_pd.h"
#include "matmul_pd.h"
#include "memory_desc.h"
#include "verbose.h"

#define VERBOSE_LEVEL_MAX 2

static atomic_int verbose_level = -1;

/* Level named by one token of TSR_VERBOSE; 0 for unknown words. */
static int level_of_token(const char *tok, size_t len) {
    static const struct {
        const char *word;
        int level;
    } words[] = {{"none", 0},           {"error", 0},    {"warn", 0},
                 {"check", 0},          {"dispatch", 0}, {"profile_exec", 1},
                 {"profile_create", 2}, {"profile", 2},  {"all", 2}};
    if (len > 0 && tok[0] >= '0' && tok[0] <= '9') {
        int v = atoi(tok);
        return v > VERBOSE_LEVEL_MAX ? VERBOSE_LEVEL_MAX : v;
    }
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i].word) == len &&
            strncmp(words[i].word, tok, len) == 0)
            return words[i].level;
    return 0;
}

/* oneDNN allows comma-separated flags; the highest level named wins. */
static int level_from_env(void) {
    const char *v = getenv("TSR_VERBOSE");
    int level = 0;
    while (v && *v) {
        size_t len = strcspn(v, ",");
        int l = level_of_token(v, len);
        level = l > level ? l : level;
        v += len;
        if (*v == ',')
            v++;
    }
    return level;
}

int tsr_verbose_level(void) {
    int level = atomic_load(&verbose_level);
    if (level < 0) {
        int expected = -1;
        atomic_compare_exchange_strong(&verbose_level, &expected,
                                       level_from_env());
        level = atomic_load(&verbose_level);
    }
    return level;
}

tsr_status_t tsr_set_verbose(int level) {
    if (level < 0 || level > VERBOSE_LEVEL_MAX)
        return tsr_invalid_arguments;
    atomic_store(&verbose_level, level);
    return tsr_success;
}

double tsr_time_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Appends to a fixed buffer, truncating silently when it is full. */
typedef struct {
    char *buf;
    size_t len, pos;
} appender_t;

static void append(appender_t *a, const char *fmt, ...) {
    if (a->pos >= a->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(a->buf + a->pos, a->len - a->pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        a->pos += (size_t)n;
    if (a->pos >= a->len)
        a->pos = a->len;
}

static const char *prop_kind2str(tsr_prop_kind_t prop) {
    switch (prop) {
    case tsr_forward_training:
        return "forward_training";
    case tsr_forward_inference:
        return "forward_inference";
    case tsr_backward_data:
        return "backward_data";
    case tsr_backward_weights:
        return "backward_weights";
    case tsr_backward_bias:
        return "backward_bias";
    default:
        return "undef";
    }
}

static const char *format_kind2str(tsr_format_kind_t kind) {
    switch (kind) {
    case tsr_format_kind_any:
        return "any";
    case tsr_format_kind_blocked:
        return "blocked";
    default:
        return "undef";
    }
}

static void append_md(appender_t *a, const char *name,
                      const tsr_memory_desc_t *md, int user_asked_any) {
    char tag[64];
    if (tsr_memory_desc_layout_str(md, tag, sizeof(tag)) != tsr_success)
        snprintf(tag, sizeof(tag), "undef");
    append(a, "%s%s_%s:%s%s:%s:%s::f%llu", a->pos ? " " : "", name,
           tsr_data_type2str(md->data_type), user_asked_any ? "a" : "",
           md_has_padding(md) ? "p" : "", format_kind2str(md->format_kind), tag,
           (unsigned long long)md->extra.flags);
    /* Extra data: the dims its compensation sums are per. */
    if (md->extra.flags & tsr_memory_extra_flag_compensation)
        append(a, ":cm%d", md->extra.compensation_mask);
}

static void append_mds(appender_t *a, const struct tsr_primitive_desc *pd) {
    static const char *const names[TSR_MD_MULTIPLE_SRC] = {
            [TSR_MD_SRC] = "src",
            [TSR_MD_WEIGHTS] = "wei",
            [TSR_MD_BIAS] = "bia",
            [TSR_MD_DST] = "dst",
            [TSR_MD_SRC_1] = "src1",
            [TSR_MD_SRC_2] = "src2",
            [TSR_MD_MEAN] = "mean",
            [TSR_MD_VARIANCE] = "var",
            [TSR_MD_SCALE] = "scale",
            [TSR_MD_SHIFT] = "shift",
            [TSR_MD_WORKSPACE] = "ws",
            [TSR_MD_DIFF_SRC] = "diff_src",
            [TSR_MD_DIFF_SRC_1] = "diff_src1",
            [TSR_MD_DIFF_DST] = "diff_dst",
            [TSR_MD_DIFF_WEIGHTS] = "diff_wei",
            [TSR_MD_DIFF_BIAS] = "diff_bia",
            [TSR_MD_DIFF_SCALE] = "diff_scale",
            [TSR_MD_DIFF_SHIFT] = "diff_shift",
    };
    for (int slot = 0; slot < TSR_MD_COUNT; slot++) {
        const tsr_memory_desc_t *md = &pd->md[slot];
        if (md_is_zero(md))
            continue;
        char name[16];
        if (slot >= TSR_MD_MULTIPLE_SRC)
            snprintf(name, sizeof(name), "src%d", slot - TSR_MD_MULTIPLE_SRC);
        append_md(a, slot >= TSR_MD_MULTIPLE_SRC ? name : names[slot], md,
                  pd->user_asked_any[slot]);
    }
}

/* Bits of the dims where a binary src1 is not broadcast. */
static int binary_mask(const tsr_memory_desc_t *src1) {
    int mask = 0;
    for (int d = 0; d < src1->ndims; d++)
        if (src1->dims[d] != 1)
            mask |= 1 << d;
    return mask;
}

static void append_post_op(appender_t *a, const tsr_post_op_t *e) {
    switch (e->kind) {
    case tsr_post_op_sum:
        append(a, "sum");
        if (e->sum.scale != 1.f || e->sum.zero_point != 0 ||
            e->sum.dt != tsr_data_type_undef)
            append(a, ":%g", e->sum.scale);
        if (e->sum.zero_point != 0 || e->sum.dt != tsr_data_type_undef)
            append(a, ":%d", (int)e->sum.zero_point);
        if (e->sum.dt != tsr_data_type_undef)
            append(a, ":%s", tsr_data_type2str(e->sum.dt));
        break;
    case tsr_post_op_eltwise:
        append(a, "eltwise_%s", tsr_alg_kind2str(e->eltwise.alg));
        if (e->eltwise.alpha != 0.f || e->eltwise.beta != 0.f ||
            e->eltwise.scale != 1.f)
            append(a, ":%g", e->eltwise.alpha);
        if (e->eltwise.beta != 0.f || e->eltwise.scale != 1.f)
            append(a, ":%g", e->eltwise.beta);
        if (e->eltwise.scale != 1.f)
            append(a, ":%g", e->eltwise.scale);
        break;
    case tsr_post_op_binary:
        append(a, "binary_%s:%s:%d", tsr_alg_kind2str(e->binary.alg),
               tsr_data_type2str(e->binary.src1_desc.data_type),
               binary_mask(&e->binary.src1_desc));
        break;
    case tsr_post_op_prelu:
        append(a, "prelu:%d", e->prelu.mask);
        break;
    default:
        append(a, "undef");
        break;
    }
}

static void append_q(appender_t *a, const char *what,
                     const tsr_runtime_q_t q[TSR_QARG_COUNT]) {
    static const char *names[TSR_QARG_COUNT] = {
            [TSR_QARG_SRC] = "src0",
            [TSR_QARG_WEIGHTS] = "wei",
            [TSR_QARG_DST] = "dst",
            [TSR_QARG_SRC_1] = "src1",
    };
    int first = 1;
    for (int i = 0; i < TSR_QARG_COUNT; i++) {
        if (!q[i].set)
            continue;
        append(a, "%s%s:%d", first ? what : "+", names[i], q[i].mask);
        first = 0;
    }
}

static int any_q_set(const tsr_runtime_q_t *q) {
    for (int i = 0; i < TSR_QARG_COUNT; i++)
        if (q[i].set)
            return 1;
    return 0;
}

/* The separator before an attribute entry: none before the first. */
static const char *sep(const appender_t *a, size_t start) {
    return a->pos > start ? " " : "";
}

static void append_attrs(appender_t *a, const struct tsr_primitive_attr *attr) {
    const size_t start = a->pos;
    if (attr->scratchpad_mode == tsr_scratchpad_mode_user)
        append(a, "%sattr-scratchpad:user", sep(a, start));
    if (attr->round_mode == tsr_round_down)
        append(a, "%sattr-round-mode:down", sep(a, start));
    if (attr->output_scales.set)
        append(a, "%sattr-oscale:%d", sep(a, start), attr->output_scales.mask);
    if (any_q_set(attr->scales)) {
        append(a, "%s", sep(a, start));
        append_q(a, "attr-scales:", attr->scales);
    }
    if (any_q_set(attr->zero_points)) {
        append(a, "%s", sep(a, start));
        append_q(a, "attr-zero-points:", attr->zero_points);
    }
    if (attr->post_ops.len > 0) {
        append(a, "%sattr-post-ops:", sep(a, start));
        for (int i = 0; i < attr->post_ops.len; i++) {
            if (i)
                append(a, "+");
            append_post_op(a, &attr->post_ops.entry[i]);
        }
    }
}

/* oneDNN's verbose problem form: only the spatial dims the problem has. */
void tsr_verbose_conv_problem(const struct tsr_primitive_desc *pd, char *buf,
                              size_t len) {
    appender_t app = {buf, len, 0}, *a = &app;
    buf[0] = '\0';
    append(a, "alg:%s,",
           pd->op.conv.alg_kind == tsr_convolution_auto ? "convolution_auto"
                                                        : "convolution_direct");
    if (conv_with_groups(pd))
        append(a, "mb%lld_g%lldic%lldoc%lld", (long long)conv_MB(pd),
               (long long)conv_G(pd), (long long)conv_IC(pd),
               (long long)conv_OC(pd));
    else
        append(a, "mb%lld_ic%lldoc%lld", (long long)conv_MB(pd),
               (long long)conv_IC(pd), (long long)conv_OC(pd));
    const int nd = conv_ndims(pd);
    if (nd >= 5)
        append(a, "_id%lldod%lldkd%lldsd%lldd%lldpd%lld",
               (long long)conv_ID(pd), (long long)conv_OD(pd),
               (long long)conv_KD(pd), (long long)conv_KSD(pd),
               (long long)conv_KDD(pd), (long long)conv_padFront(pd));
    if (nd >= 4)
        append(a, "_ih%lldoh%lldkh%lldsh%llddh%lldph%lld",
               (long long)conv_IH(pd), (long long)conv_OH(pd),
               (long long)conv_KH(pd), (long long)conv_KSH(pd),
               (long long)conv_KDH(pd), (long long)conv_padT(pd));
    append(a, "_iw%lldow%lldkw%lldsw%llddw%lldpw%lld", (long long)conv_IW(pd),
           (long long)conv_OW(pd), (long long)conv_KW(pd),
           (long long)conv_KSW(pd), (long long)conv_KDW(pd),
           (long long)conv_padL(pd));
}

static void append_dims(appender_t *a, const tsr_memory_desc_t *md) {
    for (int d = 0; d < md->ndims; d++)
        append(a, "%s%lld", d ? "x" : "", (long long)md->dims[d]);
}

/* benchdnn's ip descriptor: mbXicX[idX][ihX]iwXocX (spatial when any). */
void tsr_verbose_ip_problem(const struct tsr_primitive_desc *pd, char *buf,
                            size_t len) {
    appender_t app = {buf, len, 0}, *a = &app;
    buf[0] = '\0';
    append(a, ",");
    static const char *const spatial[] = {"id", "ih", "iw"};
    const tsr_memory_desc_t *src = &pd->op.ip.src_desc;
    append(a, "mb%lldic%lld", (long long)ip_MB(pd), (long long)ip_IC(pd));
    for (int d = 2; d < src->ndims; d++)
        append(a, "%s%lld", spatial[3 - (src->ndims - 2) + d - 2],
               (long long)src->dims[d]);
    append(a, "oc%lld", (long long)ip_OC(pd));
}

/* src:weights:dst dims, as oneDNN prints matmul problems. */
void tsr_verbose_matmul_problem(const struct tsr_primitive_desc *pd, char *buf,
                                size_t len) {
    appender_t app = {buf, len, 0}, *a = &app;
    buf[0] = '\0';
    append(a, ",");
    append_dims(a, &pd->op.matmul.src_desc);
    append(a, ":");
    append_dims(a, &pd->op.matmul.weights_desc);
    append(a, ":");
    append_dims(a, &pd->op.matmul.dst_desc);
}

void tsr_verbose_dims_problem(const struct tsr_primitive_desc *pd, char *buf,
                              size_t len) {
    appender_t app = {buf, len, 0}, *a = &app;
    buf[0] = '\0';
    append(a, ",");
    for (int slot = 0; slot < TSR_MD_COUNT; slot++)
        if (!md_is_zero(&pd->md[slot])) {
            append_dims(a, &pd->md[slot]);
            break;
        }
}

void tsr_verbose_multi_dims_problem(const char *aux,
                                    const tsr_memory_desc_t *const *mds, int n,
                                    char *buf, size_t len) {
    appender_t app = {buf, len, 0}, *a = &app;
    buf[0] = '\0';
    append(a, "%s,", aux ? aux : "");
    for (int i = 0; i < n; i++) {
        if (i)
            append(a, ":");
        append_dims(a, mds[i]);
    }
}

void tsr_verbose_fill_info(struct tsr_primitive_desc *pd) {
    appender_t a = {pd->info, sizeof(pd->info), 0};
    pd->info[0] = '\0';
    const tsr_prim_kind_info_t *kind = tsr_prim_kind_info(pd->op.kind);
    append(&a, "%s,",
           prop_kind2str(kind ? kind->prop_kind(&pd->op)
                              : tsr_prop_kind_undef));

    char part[sizeof(pd->info)];
    appender_t p = {part, sizeof(part), 0};
    part[0] = '\0';
    append_mds(&p, pd);
    append(&a, "%s,", part);

    p.pos = 0;
    part[0] = '\0';
    append_attrs(&p, &pd->attr);
    append(&a, "%s,", part);

    if (kind && kind->verbose_problem)
        kind->verbose_problem(pd, part, sizeof(part));
    else
        tsr_verbose_dims_problem(pd, part, sizeof(part));
    append(&a, "%s", part);
}

void tsr_verbose_print(const char *stage, const struct tsr_primitive_desc *pd,
                       double ms) {
    printf("tessera_verbose,%s,cpu,%s,%s,%s,%g\n", stage,
           tsr_prim_kind2str(pd->op.kind), pd->impl ? pd->impl->name : "undef",
           pd->info, ms);
    fflush(stdout);
}
