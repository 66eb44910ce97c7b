/* Multi-dims descriptors (see multi_dims_desc.h). */
#include "binary/multi_dims_desc.h"

#include <ctype.h>
#include <string.h>

#include "common/benchdnn.h"
#include "common/checked_math.h"
#include "common/desc_name.h"
#include "common/parser.h"

/* One tensor's dims at *s, up to ':', 'n' or the end; advances *s. */
static int parse_dims(const char **s, const char *str, const char *what,
                      int input, int64_t *dims, int *ndims, char *err) {
    const char *p = *s;
    int nd = 0;
    for (;;) {
        if (!isdigit((unsigned char)*p)) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor %d: expected a "
                          "dimension at '%.16s'",
                          what, str, input, p);
            return -1;
        }
        if (nd == TSR_MAX_NDIMS) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor %d has more than %d "
                          "dims",
                          what, str, input, TSR_MAX_NDIMS);
            return -1;
        }
        char num[24];
        size_t n = 0;
        while (isdigit((unsigned char)p[n]) && n + 1 < sizeof(num)) {
            num[n] = p[n];
            n++;
        }
        num[n] = '\0';
        int64_t v;
        if (parse_int_try(num, &v) != 0 || v <= 0) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor %d: dimension '%s' "
                          "is not a positive integer",
                          what, str, input, num);
            return -1;
        }
        dims[nd++] = v;
        p += n;
        while (*p == '_')
            p++;
        if (*p != 'x')
            break;
        p++;
    }
    *ndims = nd;
    *s = p;
    return 0;
}

int multi_dims_desc_parse_try(const char *str, const char *what, int min_inputs,
                              int max_inputs, multi_dims_desc_t *desc,
                              char *err) {
    multi_dims_desc_t d;
    memset(&d, 0, sizeof(d));
    const char *s = str;
    for (;;) {
        if (d.n_inputs == max_inputs || d.n_inputs == MULTI_DIMS_MAX_INPUTS) {
            bench_set_err(err, "bad %s descriptor '%s': more than %d tensors",
                          what, str, max_inputs);
            return -1;
        }
        const int i = d.n_inputs;
        int nd;
        if (parse_dims(&s, str, what, i, d.dims[i], &nd, err) != 0)
            return -1;
        if (i == 0)
            d.ndims = nd;
        if (nd > d.ndims) {
            bench_set_err(err,
                          "bad %s descriptor '%s': tensor %d has %d dims, "
                          "more than the first tensor's %d",
                          what, str, i, nd, d.ndims);
            return -1;
        }
        for (int k = nd; k < d.ndims; k++)
            d.dims[i][k] = 1;
        d.n_inputs++;
        if (*s == ':') {
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
    if (d.n_inputs < min_inputs) {
        bench_set_err(err,
                      "bad %s descriptor '%s': %d tensor%s given, %d needed "
                      "(A0xA1...:B0xB1...)",
                      what, str, d.n_inputs, d.n_inputs == 1 ? "" : "s",
                      min_inputs);
        return -1;
    }
    *desc = d;
    return 0;
}

void multi_dims_desc_print(const multi_dims_desc_t *d, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < d->n_inputs; i++)
        for (int k = 0; k < d->ndims; k++)
            bench_appendf(&l, "%s%lld",
                          k   ? "x"
                          : i ? ":"
                              : "",
                          (long long)d->dims[i][k]);
    if (d->name[0])
        bench_appendf(&l, "_n%s", d->name);
}

void multi_dims_desc_max_dims(const multi_dims_desc_t *d, int64_t *dims) {
    for (int k = 0; k < d->ndims; k++) {
        dims[k] = 1;
        for (int i = 0; i < d->n_inputs; i++)
            if (d->dims[i][k] > dims[k])
                dims[k] = d->dims[i][k];
    }
}

int64_t multi_dims_nelems(int ndims, const int64_t *dims) {
    return bench_prod_i64_sat(dims, ndims);
}
