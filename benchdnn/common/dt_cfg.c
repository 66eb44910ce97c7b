/* Data type configurations of a problem (see dt_cfg.h). */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */

#include "common/dt_cfg.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/cli_help.h"

/* Types oneDNN's batch files use that the library does not have: they
 * parse, and the problem is reported UNIMPLEMENTED. */
static const char *const foreign_dt_names[] = {
        "f64",     "f8_e5m2", "f8_e4m3", "s4",  "u4",     "f4_e2m1",
        "f4_e3m0", "e8m0",    "s16",     "u16", "boolean"};

/* Resolves one type name of length n; 0 on success. */
static int dt_from_name(const char *s, size_t n, tsr_data_type_t *dt,
                        char *unsupported, size_t unsupported_len) {
    char name[16];
    if (n == 0 || n >= sizeof(name))
        return -1;
    for (size_t i = 0; i < n; i++)
        name[i] = (char)tolower((unsigned char)s[i]);
    name[n] = '\0';
    *dt = tsr_str2data_type(name);
    if (*dt != tsr_data_type_undef)
        return 0;
    for (size_t i = 0;
         i < sizeof(foreign_dt_names) / sizeof(foreign_dt_names[0]); i++) {
        if (strcmp(name, foreign_dt_names[i]) == 0) {
            if (unsupported[0] == '\0')
                snprintf(unsupported, unsupported_len, "%s", name);
            return 0;
        }
    }
    return -1;
}

/* Length of the data type name at the start of a v2.x cfg string. */
static size_t cfg_token_len(const char *s) {
    static const char *const names[] = {"bf16", "f16", "f32", "f64",
                                        "s32",  "s8",  "u8"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(s, names[i], n) == 0)
            return n;
    }
    return 0;
}

/* The configurations oneDNN's batch files use most, for the hint of an
 * unknown one. */
static const char *const common_cfgs[] = {
        "f32",     "bf16bf16f32", "bf16bf16bf16", "f16",    "f16f16f32",
        "u8s8f32", "u8s8s32",     "u8s8s8",       "u8s8u8", "u8s8bf16",
        "s8s8f32", "s8s8s32",     "s8s8s8",       "s8s8u8", "s8s8bf16"};

static int unknown_cfg(const char *value, char *err) {
    bench_set_err(err, "--cfg: unknown configuration '%s'", value);
    bench_append_value_hint(err, value, common_cfgs,
                            (int)(sizeof(common_cfgs) / sizeof(*common_cfgs)),
                            1);
    return -1;
}

/* v2.x suffixes naming a fill strategy; the types are what counts here. */
static const char *const cfg_suffixes[] = {"_wino", "_full", "_no_limits"};

static int parse_legacy_cfg(const char *value, bench_dt_cfg_t *cfg, char *err) {
    size_t len = strlen(value);
    for (size_t i = 0; i < sizeof(cfg_suffixes) / sizeof(cfg_suffixes[0]);
         i++) {
        size_t n = strlen(cfg_suffixes[i]);
        if (len > n && strcasecmp(value + len - n, cfg_suffixes[i]) == 0) {
            len -= n;
            break;
        }
    }
    tsr_data_type_t dts[4];
    int count = 0;
    for (size_t pos = 0; pos < len;) {
        size_t n = cfg_token_len(value + pos);
        if (n == 0 || pos + n > len || count == 4 ||
            dt_from_name(value + pos, n, &dts[count], cfg->unsupported,
                         sizeof(cfg->unsupported)) != 0)
            return unknown_cfg(value, err);
        count++;
        pos += n;
    }
    /* One name covers all tensors; three are src, weights, dst; a fourth
     * (old names like u8s8u8s32) is the accumulator, implied by the rest. */
    if (count == 1) {
        dts[1] = dts[2] = dts[0];
    } else if (count != 3 && count != 4) {
        return unknown_cfg(value, err);
    }
    cfg->src = dts[0];
    cfg->wei = dts[1];
    cfg->dst = dts[2];
    size_t i = 0;
    for (; value[i] && i + 1 < sizeof(cfg->text); i++)
        cfg->text[i] = (char)tolower((unsigned char)value[i]);
    cfg->text[i] = '\0';
    return 0;
}

static int parse_dt_list(const char *value, bench_dt_cfg_t *cfg, char *err) {
    tsr_data_type_t dts[3];
    const char *names[3];
    size_t lens[3];
    int count = 0;
    const char *p = value;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (count == 3 || dt_from_name(p, n, &dts[count], cfg->unsupported,
                                       sizeof(cfg->unsupported)) != 0) {
            bench_set_err(err,
                          "--dt: '%s' is not a data type or SRC:WEI:DST list",
                          value);
            return -1;
        }
        names[count] = p;
        lens[count] = n;
        count++;
        if (!colon)
            break;
        p = colon + 1;
    }
    if (count == 2) {
        bench_set_err(err, "--dt: '%s': give one type or SRC:WEI:DST", value);
        return -1;
    }
    if (count == 1) {
        dts[1] = dts[2] = dts[0];
        names[1] = names[2] = names[0];
        lens[1] = lens[2] = lens[0];
    }
    cfg->src = dts[0];
    cfg->wei = dts[1];
    cfg->dst = dts[2];
    int all_same = lens[0] == lens[1] && lens[1] == lens[2] &&
                   strncasecmp(names[0], names[1], lens[0]) == 0 &&
                   strncasecmp(names[1], names[2], lens[0]) == 0;
    int n = all_same ? snprintf(cfg->text, sizeof(cfg->text), "%.*s",
                                (int)lens[0], names[0])
                     : snprintf(cfg->text, sizeof(cfg->text), "%.*s:%.*s:%.*s",
                                (int)lens[0], names[0], (int)lens[1], names[1],
                                (int)lens[2], names[2]);
    (void)n;
    for (char *c = cfg->text; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return 0;
}

int bench_dt_cfg_parse_try(const char *value, int legacy, bench_dt_cfg_t *cfg,
                           char *err) {
    bench_dt_cfg_t c;
    memset(&c, 0, sizeof(c));
    c.legacy = legacy;
    if (!value || !*value) {
        bench_set_err(err, "%s: empty value", legacy ? "--cfg" : "--dt");
        return -1;
    }
    int rc = legacy ? parse_legacy_cfg(value, &c, err)
                    : parse_dt_list(value, &c, err);
    if (rc != 0)
        return -1;
    if (c.unsupported[0])
        c.src = c.wei = c.dst = tsr_data_type_undef;
    *cfg = c;
    return 0;
}

int bench_dt_cfg_is_default(const bench_dt_cfg_t *cfg) {
    return strcmp(cfg->text, "f32") == 0;
}

int bench_bia_dt_parse_try(const char *value, bench_bia_dt_t *bia, char *err) {
    bench_bia_dt_t b;
    memset(&b, 0, sizeof(b));
    if (!value || dt_from_name(value, strlen(value), &b.dt, b.unsupported,
                               sizeof(b.unsupported)) != 0) {
        bench_set_err(err, "--bia-dt: '%s' is not a data type",
                      value ? value : "");
        return -1;
    }
    *bia = b;
    return 0;
}
