/* Option validators shared by the matmul and inner product drivers. */
#include <string.h>

#include "common/layout_tag.h"
#include "common/parser.h"
#include "matmul/mm_task.h"

int mm_dt_cfg_parse_try(const char *value, bench_dt_cfg_t *cfg, char *err) {
    /* A value with a colon or a plain type name is --dt; otherwise a v2.x
     * configuration name such as u8s8u8 or bf16bf16f32. */
    if (bench_dt_cfg_parse_try(value, 0, cfg, NULL) == 0 ||
        (!strchr(value, ':') &&
         bench_dt_cfg_parse_try(value, 1, cfg, NULL) == 0))
        return 0;
    return bench_dt_cfg_parse_try(value, 0, cfg, err);
}

int mm_validate_dt(const char *option, const char *value, char *err) {
    bench_dt_cfg_t cfg;
    (void)option;
    return mm_dt_cfg_parse_try(value, &cfg, err);
}

int mm_validate_data_type(const char *option, const char *value, char *err) {
    if (strcmp(value, "undef") == 0)
        return 0;
    bench_bia_dt_t bia;
    if (bench_bia_dt_parse_try(value, &bia, NULL) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a data type", option, value);
    return -1;
}

int mm_validate_tag(const char *option, const char *value, char *err) {
    if (bench_tag_is_valid(value))
        return 0;
    return bench_tag_error(err, option, value);
}

int mm_validate_fpmath(const char *option, const char *value, char *err) {
    static const char *const modes[] = {"strict", "bf16", "f16", "tf32", "any"};
    const size_t len = strcspn(value, ":");
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        int flag;
        if (strlen(modes[i]) == len && strncmp(value, modes[i], len) == 0 &&
            (value[len] == '\0' || parse_bool_try(value + len + 1, &flag) == 0))
            return 0;
    }
    bench_set_err(err, "--%s: unknown mode '%s'", option, value);
    return -1;
}
