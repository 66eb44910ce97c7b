/* Dims descriptors (see dims_desc.h). */
#include "common/dims_desc.h"

#include <ctype.h>
#include <string.h>

#include "common/benchdnn.h"
#include "common/checked_math.h"
#include "common/desc_name.h"
#include "common/parser.h"

int dims_desc_parse_try(const char *str, const char *what, dims_desc_t *desc,
                        char *err) {
    dims_desc_t d;
    memset(&d, 0, sizeof(d));
    const char *s = str;
    for (;;) {
        if (!isdigit((unsigned char)*s)) {
            bench_set_err(err,
                          "bad %s descriptor '%s': expected a dimension at "
                          "'%.16s'",
                          what, str, s);
            return -1;
        }
        if (d.ndims == TSR_MAX_NDIMS) {
            bench_set_err(err, "bad %s descriptor '%s': more than %d dims",
                          what, str, TSR_MAX_NDIMS);
            return -1;
        }
        char num[24];
        size_t n = 0;
        while (isdigit((unsigned char)s[n]) && n + 1 < sizeof(num)) {
            num[n] = s[n];
            n++;
        }
        num[n] = '\0';
        int64_t v;
        if (parse_int_try(num, &v) != 0 || v <= 0) {
            bench_set_err(err,
                          "bad %s descriptor '%s': dimension '%s' is not a "
                          "positive integer",
                          what, str, num);
            return -1;
        }
        d.dims[d.ndims++] = v;
        s += n;
        while (*s == '_')
            s++;
        if (*s == 'x') {
            s++;
            continue;
        }
        if (*s == '\0')
            break;
        if (*s == 'n') {
            if (desc_parse_name(s + 1, str, what, d.name, sizeof(d.name),
                                err) != 0)
                return -1;
            break;
        }
        bench_set_err(err, "bad %s descriptor '%s': unexpected text '%.16s'",
                      what, str, s);
        return -1;
    }
    *desc = d;
    return 0;
}

void dims_desc_print(const dims_desc_t *d, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < d->ndims; i++)
        bench_appendf(&l, "%s%lld", i ? "x" : "", (long long)d->dims[i]);
    if (d->name[0])
        bench_appendf(&l, "_n%s", d->name);
}

int64_t dims_desc_nelems(const dims_desc_t *d) {
    return bench_prod_i64_sat(d->dims, d->ndims);
}
