/* --attr-scales of the binary driver: the common attribute parser knows
 * src, wei and dst; binary adds src1 (v3.x `src:common:0.25+src1:...`).
 * The driver keeps the option in its own table (binary_bench.c renames
 * the token), hands every other entry to the common parser, and reads a
 * src1 entry with it too, spelled as src. */
#include <stdio.h>
#include <string.h>

#include "binary/binary.h"

#define SCALES_TEXT_LEN 256

static int is_src1_entry(const char *entry, size_t len) {
    return len > 5 && strncmp(entry, "src1:", 5) == 0;
}

/* Splits `value` at '+' into the src1 entry, spelled with "src" (empty
 * when none), and the others. -1 when the text is too long. */
static int split(const char *value, char *src1, char *rest) {
    src1[0] = rest[0] = '\0';
    size_t used = 0, n = strlen(value);
    if (n >= 2 && (value[0] == '\'' || value[0] == '"') &&
        value[n - 1] == value[0]) {
        value++; /* quoted, as shells and batch files may pass it */
        n -= 2;
    }
    char buf[SCALES_TEXT_LEN];
    if (n >= sizeof(buf))
        return -1;
    memcpy(buf, value, n);
    buf[n] = '\0';
    for (const char *p = buf; *p;) {
        const size_t len = strcspn(p, "+");
        if (len + 2 >= SCALES_TEXT_LEN - used)
            return -1;
        if (is_src1_entry(p, len)) {
            snprintf(src1, SCALES_TEXT_LEN, "src%.*s", (int)(len - 4), p + 4);
        } else {
            used += (size_t)snprintf(rest + used, SCALES_TEXT_LEN - used,
                                     "%s%.*s", used ? "+" : "", (int)len, p);
        }
        p += len + (p[len] == '+');
    }
    return 0;
}

int binary_scales_validate(const char *option, const char *value, char *err) {
    char src1[SCALES_TEXT_LEN], rest[SCALES_TEXT_LEN];
    bench_attr_t scratch;
    bench_attr_init(&scratch);
    if (split(value, src1, rest) != 0) {
        bench_set_err(err, "--%s: value '%s' too long", option, value);
        return -1;
    }
    if ((src1[0] && attr_try_parse_scales(&scratch, src1, err) != 0) ||
        (rest[0] && attr_try_parse_scales(&scratch, rest, err) != 0)) {
        bench_set_err(err, "--attr-scales: bad value '%s'", value);
        return -1;
    }
    return 0;
}

void binary_scales_apply(const char *value, bench_attr_t *attr,
                         bench_scale_t *src1_scale) {
    char src1[SCALES_TEXT_LEN], rest[SCALES_TEXT_LEN];
    memset(src1_scale, 0, sizeof(*src1_scale));
    src1_scale->scale = 1;
    if (split(value, src1, rest) != 0)
        return;
    if (rest[0])
        attr_parse_scales(attr, rest);
    if (src1[0]) {
        bench_attr_t scratch;
        bench_attr_init(&scratch);
        attr_parse_scales(&scratch, src1);
        *src1_scale = scratch.scales[QARG_SRC];
    }
}

/* The shortest text that reads back as `v`. */
static void print_float(char *buf, size_t len, float v) {
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(buf, len, "%.*g", digits, (double)v);
        float back;
        if (sscanf(buf, "%g", &back) == 1 && back == v)
            return;
    }
}

void binary_attr_repro(const bench_attr_t *attr,
                       const bench_scale_t *src1_scale, int canonical,
                       char *buf, size_t len) {
    char common[1024] = "";
    attr_to_repro(attr, canonical, common, sizeof(common));
    if (!src1_scale->set) {
        snprintf(buf, len, "%s", common);
        return;
    }
    char value[32], entry[96];
    print_float(value, sizeof(value), src1_scale->scale);
    snprintf(entry, sizeof(entry), "src1:%s:%s%s",
             policy2str(src1_scale->policy), value,
             src1_scale->runtime ? "*" : "");
    /* After src's entry, or where --attr-scales goes among the others. */
    const char *at = strstr(common, " --attr-scales=");
    if (at) {
        const size_t end = (size_t)(at - common) + 1 + strcspn(at + 1, " ");
        snprintf(buf, len, "%.*s+%s%s", (int)end, common, entry, common + end);
        return;
    }
    static const char *const later[] = {
            " --attr-zero-points=", " --attr-post-ops=", " --attr-round-mode="};
    size_t pos = strlen(common);
    for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
        const char *p = strstr(common, later[i]);
        if (p && (size_t)(p - common) < pos)
            pos = (size_t)(p - common);
    }
    snprintf(buf, len, "%.*s --attr-scales=%s%s", (int)pos, common, entry,
             common + pos);
}
