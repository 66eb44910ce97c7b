/* Per-input option values (see multi_opts.h). */
#include "binary/multi_opts.h"

#include <stdio.h>
#include <string.h>

#include "common/dt_cfg.h"
#include "common/layout_tag.h"

int multi_opt_split(const char *value, char items[][OPT_VALUE_LEN], int max) {
    int n = 0;
    for (const char *p = value;;) {
        const size_t len = strcspn(p, ":");
        if (len == 0 || len >= OPT_VALUE_LEN || n == max)
            return -1;
        memcpy(items[n], p, len);
        items[n++][len] = '\0';
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

static int count_error(const char *option, const char *value, int min, int max,
                       char *err) {
    if (min == max)
        bench_set_err(err, "--%s: '%s' needs exactly %d ':'-separated values",
                      option, value, min);
    else
        bench_set_err(err, "--%s: '%s' needs %d to %d ':'-separated values",
                      option, value, min, max);
    return -1;
}

int multi_opt_validate_dts(const char *option, const char *value, int min,
                           int max, char *err) {
    char items[MULTI_OPTS_MAX][OPT_VALUE_LEN];
    const int n = multi_opt_split(value, items, MULTI_OPTS_MAX);
    if (n < min || n > max)
        return count_error(option, value, min, max, err);
    for (int i = 0; i < n; i++) {
        bench_bia_dt_t dt;
        if (bench_bia_dt_parse_try(items[i], &dt, err) != 0) {
            bench_set_err(err, "--%s: '%s' is not a data type (in '%s')",
                          option, items[i], value);
            return -1;
        }
    }
    return 0;
}

int multi_opt_validate_tags(const char *option, const char *value, int min,
                            int max, char *err) {
    char items[MULTI_OPTS_MAX][OPT_VALUE_LEN];
    const int n = multi_opt_split(value, items, MULTI_OPTS_MAX);
    if (n < min || n > max)
        return count_error(option, value, min, max, err);
    for (int i = 0; i < n; i++) {
        if (!bench_tag_is_valid(items[i]))
            return bench_tag_error(err, option, items[i]);
    }
    return 0;
}

int multi_opt_dts(const char *value, tsr_data_type_t *dts, char *unsupported) {
    char items[MULTI_OPTS_MAX][OPT_VALUE_LEN];
    const int n = multi_opt_split(value, items, MULTI_OPTS_MAX);
    unsupported[0] = '\0';
    for (int i = 0; i < n; i++) {
        bench_bia_dt_t dt;
        char err[BENCH_ERR_LEN];
        dts[i] = tsr_data_type_undef;
        if (bench_bia_dt_parse_try(items[i], &dt, err) != 0)
            continue;
        dts[i] = dt.dt;
        if (dt.unsupported[0] && !unsupported[0])
            snprintf(unsupported, 16, "%s", dt.unsupported);
    }
    return n;
}
