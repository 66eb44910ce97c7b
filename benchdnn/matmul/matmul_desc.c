/* The matmul descriptor: d0x..xMxK:d0x..xKxN[:d0x..xMxN][_nNAME]. */
#include <stdio.h>
#include <string.h>

#include "common/desc_name.h"
#include "common/parser.h"
#include "matmul/matmul.h"

/* Parses one tensor "AxBxC" of length len into dims; the rank, or -1. */
static int parse_dims(const char *s, size_t len, int64_t *dims) {
    int n = 0;
    size_t pos = 0;
    while (pos <= len) {
        size_t end = pos;
        while (end < len && s[end] != 'x')
            end++;
        char num[24];
        if (end == pos || end - pos >= sizeof(num) || n == MM_MAX_NDIMS)
            return -1;
        memcpy(num, s + pos, end - pos);
        num[end - pos] = '\0';
        int64_t v;
        if (num[0] < '0' || num[0] > '9' || parse_int_try(num, &v) != 0 ||
            v <= 0)
            return -1;
        dims[n++] = v;
        pos = end + 1;
    }
    return n;
}

static int fail(char *err, const char *str, const char *why) {
    bench_set_err(err, "bad matmul descriptor '%s': %s", str, why);
    return -1;
}

int matmul_desc_parse_try(const char *str, matmul_desc_t *desc, char *err) {
    matmul_desc_t d;
    memset(&d, 0, sizeof(d));
    const size_t shape_len = strspn(str, "0123456789x:");
    const char *rest = str + shape_len;
    if (*rest == '_')
        rest++;
    if (*rest == 'n') {
        if (desc_parse_name(rest + 1, str, "matmul", d.name, sizeof(d.name),
                            err) != 0)
            return -1;
    } else if (*rest) {
        return fail(err, str, "expected SRC:WEI[:DST][_nNAME]");
    }
    int64_t *tensors[3] = {d.src, d.wei, d.dst};
    int ranks[3] = {0, 0, 0}, count = 0;
    for (size_t pos = 0; pos <= shape_len && count < 4;) {
        const char *colon = memchr(str + pos, ':', shape_len - pos);
        const size_t end = colon ? (size_t)(colon - str) : shape_len;
        if (count == 3)
            return fail(err, str, "more than three tensors");
        ranks[count] = parse_dims(str + pos, end - pos, tensors[count]);
        if (ranks[count] < 0)
            return fail(err, str,
                        "a tensor is not dims joined by 'x' (positive "
                        "integers, at most 6)");
        count++;
        pos = end + 1;
    }
    if (count < 2)
        return fail(err, str, "expected SRC:WEI[:DST]");
    const int nd = ranks[0];
    if (nd < 2 || ranks[1] != nd || (count == 3 && ranks[2] != nd))
        return fail(err, str, "tensors must have the same rank, 2 to 6");
    if (d.src[nd - 1] != d.wei[nd - 2])
        return fail(err, str, "src K (last dim) differs from weights K");
    int64_t dst[MM_MAX_NDIMS];
    for (int i = 0; i < nd - 2; i++) {
        const int64_t s = d.src[i], w = d.wei[i];
        if (s != w && s != 1 && w != 1)
            return fail(err, str, "batch dims must be equal or 1 (broadcast)");
        dst[i] = s > w ? s : w;
    }
    dst[nd - 2] = d.src[nd - 2];
    dst[nd - 1] = d.wei[nd - 1];
    if (count == 3 && memcmp(dst, d.dst, sizeof(int64_t) * (size_t)nd) != 0)
        return fail(err, str, "dst dims differ from what src and weights give");
    memcpy(d.dst, dst, sizeof(int64_t) * (size_t)nd);
    d.ndims = nd;
    d.has_dst = count == 3;
    *desc = d;
    return 0;
}

static size_t print_dims(char *buf, size_t len, int n, const int64_t *dims) {
    size_t used = 0;
    for (int i = 0; i < n && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%lld", i ? "x" : "",
                         (long long)dims[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return used < len ? used : len;
}

void matmul_desc_print(const matmul_desc_t *d, int canonical, char *buf,
                       size_t len) {
    if (len == 0)
        return;
    buf[0] = '\0';
    size_t used = print_dims(buf, len, d->ndims, d->src);
    if (used + 1 < len)
        buf[used++] = ':';
    used += print_dims(buf + used, len - used, d->ndims, d->wei);
    if ((d->has_dst || canonical) && used + 1 < len) {
        buf[used++] = ':';
        used += print_dims(buf + used, len - used, d->ndims, d->dst);
    }
    if (used < len && d->name[0])
        snprintf(buf + used, len - used, "n\"%s\"", d->name);
    else if (used < len)
        buf[used] = '\0';
    else
        buf[len - 1] = '\0';
}

int matmul_strides_parse_try(const char *value, matmul_strides_t *s,
                             char *err) {
    matmul_strides_t out;
    memset(&out, 0, sizeof(out));
    const char *p = value;
    for (int t = 0; t < 3; t++) {
        const char *colon = strchr(p, ':');
        const size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len > 0) {
            out.n[t] = parse_dims(p, len, out.v[t]);
            if (out.n[t] < 0) {
                bench_set_err(err,
                              "--strides: '%s' is not SRC:WEI:DST strides "
                              "joined by 'x'",
                              value);
                return -1;
            }
            out.has[t] = 1;
        }
        if (!colon)
            break;
        if (t == 2) {
            bench_set_err(err, "--strides: '%s' has more than three parts",
                          value);
            return -1;
        }
        p = colon + 1;
    }
    *s = out;
    return 0;
}
