/* Multi-dims descriptors (see concat.h). */
#include <stdio.h>
#include <string.h>

#include "common/benchdnn.h"
#include "common/desc_name.h"
#include "common/parser.h"
#include "concat/concat.h"

int concat_desc_parse_try(const char *str, const char *what,
                          concat_desc_t *desc, char *err) {
    concat_desc_t d;
    memset(&d, 0, sizeof(d));
    const char *name = strchr(str, 'n');
    const size_t dims_len = name ? (size_t)(name - str) : strlen(str);
    if (name &&
        desc_parse_name(name + 1, str, what, d.name, sizeof(d.name), err) != 0)
        return -1;
    for (const char *p = str; p < str + dims_len;) {
        size_t len = strcspn(p, ":");
        if (p + len > str + dims_len)
            len = (size_t)(str + dims_len - p);
        char piece[256], piece_err[BENCH_ERR_LEN];
        dims_desc_t t;
        if (len == 0 || len >= sizeof(piece)) {
            bench_set_err(err,
                          "bad %s descriptor '%s': empty or too long "
                          "tensor",
                          what, str);
            return -1;
        }
        memcpy(piece, p, len);
        piece[len] = '\0';
        if (d.n == MULTI_SRC_MAX) {
            bench_set_err(err, "bad %s descriptor '%s': more than %d tensors",
                          what, str, MULTI_SRC_MAX);
            return -1;
        }
        if (dims_desc_parse_try(piece, what, &t, piece_err) != 0 || t.name[0]) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor '%s' is not "
                          "D0xD1x...",
                          what, str, piece);
            return -1;
        }
        if (d.n == 0)
            d.ndims = t.ndims;
        if (t.ndims > d.ndims) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor '%s' has more "
                          "dims than the first",
                          what, str, piece);
            return -1;
        }
        for (int k = 0; k < d.ndims; k++)
            d.dims[d.n][k] = k < t.ndims ? t.dims[k] : 1;
        d.n++;
        p += len;
        if (*p == ':')
            p++;
    }
    if (d.n < 2) {
        bench_set_err(err, "bad %s descriptor '%s': needs at least 2 tensors",
                      what, str);
        return -1;
    }
    *desc = d;
    return 0;
}

void concat_desc_print(const concat_desc_t *d, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < d->n; i++)
        for (int k = 0; k < d->ndims; k++)
            bench_appendf(&l, "%s%lld",
                          k   ? "x"
                          : i ? ":"
                              : "",
                          (long long)d->dims[i][k]);
    if (d->name[0])
        bench_appendf(&l, "_n%s", d->name);
}
