/* The inner product descriptor (see ip.h for the grammar and the implicit
 * rules). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/desc_name.h"
#include "common/parser.h"
#include "ip/ip.h"

enum { F_MB = 0, F_IC, F_ID, F_IH, F_IW, F_OC, F_COUNT };
static const char *const keys[F_COUNT] = {"mb", "ic", "id", "ih", "iw", "oc"};

int ip_desc_parse_try(const char *str, ip_desc_t *desc, char *err) {
    int64_t v[F_COUNT] = {0};
    int seen[F_COUNT] = {0};
    ip_desc_t d;
    memset(&d, 0, sizeof(d));
    const char *s = str;
    while (*s) {
        if (*s == '_') {
            s++;
            continue;
        }
        if (*s == 'n') {
            if (desc_parse_name(s + 1, str, "inner product", d.name,
                                sizeof(d.name), err) != 0)
                return -1;
            break;
        }
        int f = 0;
        while (f < F_COUNT && strncmp(s, keys[f], 2) != 0)
            f++;
        if (f == F_COUNT) {
            bench_set_err(err,
                          "bad inner product descriptor '%s': unknown entry "
                          "at '%.16s'",
                          str, s);
            return -1;
        }
        s += 2;
        char num[24];
        size_t n = 0;
        while (isdigit((unsigned char)s[n]) && n + 1 < sizeof(num)) {
            num[n] = s[n];
            n++;
        }
        num[n] = '\0';
        if (n == 0 || parse_int_try(num, &v[f]) != 0 || v[f] <= 0 || seen[f]) {
            bench_set_err(err,
                          "bad inner product descriptor '%s': '%s' needs a "
                          "positive integer, given once",
                          str, keys[f]);
            return -1;
        }
        seen[f] = 1;
        s += n;
    }
    if (!seen[F_IC] || !seen[F_OC]) {
        bench_set_err(err,
                      "bad inner product descriptor '%s': ic and oc are "
                      "required",
                      str);
        return -1;
    }
    d.mb = seen[F_MB] ? v[F_MB] : 2;
    d.ic = v[F_IC];
    d.oc = v[F_OC];
    if (seen[F_ID]) {
        d.ndims = 5;
        d.id = v[F_ID];
        d.ih = seen[F_IH] ? v[F_IH] : d.id;
        d.iw = seen[F_IW] ? v[F_IW] : d.id;
    } else if (seen[F_IH]) {
        d.ndims = 4;
        d.id = 1;
        d.ih = v[F_IH];
        d.iw = seen[F_IW] ? v[F_IW] : d.ih;
    } else if (seen[F_IW]) {
        d.ndims = 3;
        d.id = d.ih = 1;
        d.iw = v[F_IW];
    } else {
        d.ndims = 2;
        d.id = d.ih = d.iw = 1;
    }
    *desc = d;
    return 0;
}

void ip_desc_print(const ip_desc_t *d, int canonical, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    if (canonical || d->mb != 2)
        bench_appendf(&l, "mb%lld", (long long)d->mb);
    bench_appendf(&l, "ic%lld", (long long)d->ic);
    if (d->ndims == 5)
        bench_appendf(&l, "id%lld", (long long)d->id);
    if (d->ndims >= 4)
        bench_appendf(&l, "ih%lld", (long long)d->ih);
    if (d->ndims >= 3)
        bench_appendf(&l, "iw%lld", (long long)d->iw);
    bench_appendf(&l, "oc%lld", (long long)d->oc);
    if (d->name[0])
        bench_appendf(&l, "n\"%s\"", d->name);
}
