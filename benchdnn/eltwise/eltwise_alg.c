/* Eltwise algorithm names: the one repro lines print, then the spellings
 * oneDNN's batch files use (its C API names, v2.x short names). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */
#include <string.h>
#include <strings.h>

#include "eltwise/eltwise.h"

#define ALG(name, alg, math, use_dst)                                          \
    { name, alg, math, use_dst }

static const eltwise_alg_info_t algs[] = {
        ALG("relu", tsr_eltwise_relu, tsr_eltwise_relu, 0),
        ALG("relu_dst", tsr_eltwise_relu_use_dst_for_bwd, tsr_eltwise_relu, 1),
        ALG("tanh", tsr_eltwise_tanh, tsr_eltwise_tanh, 0),
        ALG("tanh_dst", tsr_eltwise_tanh_use_dst_for_bwd, tsr_eltwise_tanh, 1),
        ALG("elu", tsr_eltwise_elu, tsr_eltwise_elu, 0),
        ALG("elu_dst", tsr_eltwise_elu_use_dst_for_bwd, tsr_eltwise_elu, 1),
        ALG("square", tsr_eltwise_square, tsr_eltwise_square, 0),
        ALG("abs", tsr_eltwise_abs, tsr_eltwise_abs, 0),
        ALG("sqrt", tsr_eltwise_sqrt, tsr_eltwise_sqrt, 0),
        ALG("sqrt_dst", tsr_eltwise_sqrt_use_dst_for_bwd, tsr_eltwise_sqrt, 1),
        ALG("linear", tsr_eltwise_linear, tsr_eltwise_linear, 0),
        ALG("bounded_relu", tsr_eltwise_bounded_relu, tsr_eltwise_bounded_relu,
            0),
        ALG("soft_relu", tsr_eltwise_soft_relu, tsr_eltwise_soft_relu, 0),
        ALG("logsigmoid", tsr_eltwise_logsigmoid, tsr_eltwise_logsigmoid, 0),
        ALG("mish", tsr_eltwise_mish, tsr_eltwise_mish, 0),
        ALG("logistic", tsr_eltwise_logistic, tsr_eltwise_logistic, 0),
        ALG("logistic_dst", tsr_eltwise_logistic_use_dst_for_bwd,
            tsr_eltwise_logistic, 1),
        ALG("exp", tsr_eltwise_exp, tsr_eltwise_exp, 0),
        ALG("exp_dst", tsr_eltwise_exp_use_dst_for_bwd, tsr_eltwise_exp, 1),
        ALG("gelu_tanh", tsr_eltwise_gelu_tanh, tsr_eltwise_gelu_tanh, 0),
        ALG("gelu_erf", tsr_eltwise_gelu_erf, tsr_eltwise_gelu_erf, 0),
        ALG("swish", tsr_eltwise_swish, tsr_eltwise_swish, 0),
        ALG("log", tsr_eltwise_log, tsr_eltwise_log, 0),
        ALG("clip", tsr_eltwise_clip, tsr_eltwise_clip, 0),
        ALG("clip_v2", tsr_eltwise_clip_v2, tsr_eltwise_clip_v2, 0),
        ALG("clip_v2_dst", tsr_eltwise_clip_v2_use_dst_for_bwd,
            tsr_eltwise_clip_v2, 1),
        ALG("pow", tsr_eltwise_pow, tsr_eltwise_pow, 0),
        ALG("hardswish", tsr_eltwise_hardswish, tsr_eltwise_hardswish, 0),
        ALG("hardsigmoid", tsr_eltwise_hardsigmoid, tsr_eltwise_hardsigmoid, 0),
        ALG("round", tsr_eltwise_round, tsr_eltwise_round, 0),
};
#define N_ALGS ((int)(sizeof(algs) / sizeof(algs[0])))

/* Other spellings of one algorithm. */
static const struct {
    const char *alias, *name;
} aliases[] = {
        {"brelu", "bounded_relu"},
        {"srelu", "soft_relu"},
        {"gelu", "gelu_tanh"},
        {"eltwise_gelu", "gelu_tanh"},
};

int eltwise_alg_count(void) {
    return N_ALGS;
}

const eltwise_alg_info_t *eltwise_alg_at(int i) {
    return i >= 0 && i < N_ALGS ? &algs[i] : NULL;
}

static const eltwise_alg_info_t *find_name(const char *s) {
    for (int i = 0; i < N_ALGS; i++)
        if (strcasecmp(s, algs[i].name) == 0)
            return &algs[i];
    for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
        if (strcasecmp(s, aliases[i].alias) == 0)
            return find_name(aliases[i].name);
    return NULL;
}

const eltwise_alg_info_t *eltwise_alg_find(const char *s) {
    static const char api_prefix[] = "eltwise_";
    static const char api_dst_suffix[] = "_use_dst_for_bwd";
    const size_t plen = sizeof(api_prefix) - 1,
                 slen = sizeof(api_dst_suffix) - 1;
    const eltwise_alg_info_t *info = find_name(s);
    if (info || strncasecmp(s, api_prefix, plen) != 0)
        return info;
    /* The C API spelling: eltwise_NAME[_use_dst_for_bwd]. */
    char base[64];
    size_t len = strlen(s + plen);
    if (len == 0 || len >= sizeof(base))
        return NULL;
    memcpy(base, s + plen, len + 1);
    const int use_dst =
            len > slen && strcasecmp(base + len - slen, api_dst_suffix) == 0;
    if (use_dst)
        memcpy(base + len - slen, "_dst", sizeof("_dst"));
    else if (len > 4 && strcasecmp(base + len - 4, "_dst") == 0)
        return NULL; /* eltwise_relu_dst is no API name */
    return find_name(base);
}
