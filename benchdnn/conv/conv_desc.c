/* Convolution problem descriptors: parsing with oneDNN's implicit rules, and
 * printing back in the short (or canonical) form.
 *
 * Grammar: entries KEY<digits> in any order, KEY one of g mb ic id ih iw oc
 * od oh ow kd kh kw sd sh sw pd ph pw dd dh dw; `_` may separate entries;
 * `n` starts the name, which runs to the end (one pair of quotes around it
 * is dropped).
 *
 * Implicit rules, applied in this order:
 *  - defaults: g 1, mb 2, strides 1, dilations 0;
 *  - the rank comes from the largest spatial dim mentioned by any entry:
 *    depth -> 3D, height -> 2D, width -> 1D;
 *  - a smaller spatial dim nobody mentioned copies the next larger one
 *    (depth -> height -> width), all of its entries at once;
 *  - a missing output is computed (padding 0 when missing too); a missing
 *    padding is derived from a given output: ((o-1)*s - i + ext) / 2;
 *  - the right (back, bottom) padding follows from the rest:
 *    (o-1)*s - i + ext - p, where ext = (k-1)*(d+1)+1.
 * Rejected: unknown or repeated entries, missing numbers, a spatial dim
 * without input size or kernel, zero sizes or strides, groups that do not
 * divide the channels, and outputs that the input, kernel, stride and
 * padding cannot produce (negative left padding, or a right padding of
 * -stride or less, which would mean the output is too small). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/parser.h"
#include "conv/conv.h"

/* Raw entries as written, before the implicit rules. */
enum {
    F_G = 0,
    F_MB,
    F_IC,
    F_OC,
    F_IN, /* + spatial index */
    F_OUT = F_IN + CONV_NSPATIAL,
    F_KER = F_OUT + CONV_NSPATIAL,
    F_STR = F_KER + CONV_NSPATIAL,
    F_PAD = F_STR + CONV_NSPATIAL,
    F_DIL = F_PAD + CONV_NSPATIAL,
    F_COUNT = F_DIL + CONV_NSPATIAL,
};

static const char *const field_keys[F_COUNT] = {
        "g",  "mb", "ic", "oc",                               /* */
        "id", "ih", "iw", "od", "oh", "ow", "kd", "kh", "kw", /* */
        "sd", "sh", "sw", "pd", "ph", "pw", "dd", "dh", "dw"};

typedef struct {
    int64_t value[F_COUNT];
    int given[F_COUNT];
} raw_desc_t;

/* Values beyond this are certainly typos and would overflow products. */
#define MAX_ENTRY_VALUE ((int64_t)1 << 40)

/* A short excerpt of `s` for messages. */
static void excerpt(const char *s, char *buf, size_t len) {
    snprintf(buf, len, "%.24s%s", s, strlen(s) > 24 ? "..." : "");
}

static int match_key(const char *s) {
    /* Two-letter keys first: no key is a prefix of another except "g",
     * which no two-letter key starts with. */
    for (int f = 0; f < F_COUNT; f++) {
        size_t n = strlen(field_keys[f]);
        if (strncmp(s, field_keys[f], n) == 0)
            return f;
    }
    return -1;
}

static int parse_name(const char *s, const char *full, conv_desc_t *d,
                      char *err) {
    size_t len = strlen(s);
    if (len > 0 && (s[0] == '"' || s[0] == '\'')) {
        if (len < 2 || s[len - 1] != s[0]) {
            bench_set_err(err,
                          "bad convolution descriptor '%s': unmatched quote in "
                          "name '%s'",
                          full, s);
            return -1;
        }
        s++;
        len -= 2;
    }
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"' || s[i] == '\'' || isspace((unsigned char)s[i])) {
            bench_set_err(
                    err,
                    "bad convolution descriptor '%s': name '%.*s' contains "
                    "a quote or a space",
                    full, (int)len, s);
            return -1;
        }
    }
    if (len >= sizeof(d->name)) {
        bench_set_err(err,
                      "bad convolution descriptor '%s': name longer than %d "
                      "characters",
                      full, (int)sizeof(d->name) - 1);
        return -1;
    }
    memcpy(d->name, s, len);
    d->name[len] = '\0';
    return 0;
}

/* Tokenizes `str` into raw entries and the name. */
static int parse_entries(const char *str, raw_desc_t *raw, conv_desc_t *d,
                         char *err) {
    char ex[40];
    const char *s = str;
    while (*s) {
        if (*s == '_') {
            s++;
            continue;
        }
        if (*s == 'n')
            return parse_name(s + 1, str, d, err);
        int f = match_key(s);
        if (f < 0) {
            excerpt(s, ex, sizeof(ex));
            bench_set_err(
                    err,
                    "bad convolution descriptor '%s': unknown entry at '%s'",
                    str, ex);
            return -1;
        }
        const char *num = s + strlen(field_keys[f]);
        if (!isdigit((unsigned char)*num)) {
            excerpt(s, ex, sizeof(ex));
            bench_set_err(err,
                          "bad convolution descriptor '%s': '%s' needs a "
                          "non-negative number at '%s'",
                          str, field_keys[f], ex);
            return -1;
        }
        int64_t v = 0;
        while (isdigit((unsigned char)*num)) {
            v = v * 10 + (*num - '0');
            num++;
            if (v > MAX_ENTRY_VALUE) {
                excerpt(s, ex, sizeof(ex));
                bench_set_err(
                        err,
                        "bad convolution descriptor '%s': value too large "
                        "at '%s'",
                        str, ex);
                return -1;
            }
        }
        if (raw->given[f]) {
            bench_set_err(err,
                          "bad convolution descriptor '%s': '%s' given twice",
                          str, field_keys[f]);
            return -1;
        }
        raw->given[f] = 1;
        raw->value[f] = v;
        s = num;
    }
    return 0;
}

static int dim_mentioned(const raw_desc_t *raw, int i) {
    for (int f = F_IN; f < F_COUNT; f += CONV_NSPATIAL)
        if (raw->given[f + i])
            return 1;
    return 0;
}

static void copy_dim(raw_desc_t *raw, int to, int from) {
    for (int f = F_IN; f < F_COUNT; f += CONV_NSPATIAL) {
        raw->given[f + to] = raw->given[f + from];
        raw->value[f + to] = raw->value[f + from];
    }
}

/* (out - 1) * s - in + ext: the padding both sides of a dim need; 0 when
 * it overflows. */
static int output_span(int64_t out, int64_t s, int64_t in, int64_t ext,
                       int64_t *span) {
    int64_t v;
    return bench_mul_i64(out - 1, s, &v) && bench_sub_i64(v, in, &v) &&
           bench_add_i64(v, ext, span);
}

static int dim_overflow(const char *str, const char *in_key, char *err) {
    bench_set_err(err,
                  "bad convolution descriptor '%s': the sizes along '%s' "
                  "overflow 64-bit arithmetic",
                  str, in_key);
    return -1;
}

/* Sizes, output and paddings of spatial dim `i` from its raw entries. */
static int resolve_dim(const raw_desc_t *raw, int i, const char *str,
                       conv_desc_t *d, char *err) {
    const char *ik = field_keys[F_IN + i], *kk = field_keys[F_KER + i];
    const char *ok = field_keys[F_OUT + i], *pk = field_keys[F_PAD + i];
    const char *sk = field_keys[F_STR + i];
    if (!raw->given[F_IN + i] || !raw->given[F_KER + i]) {
        bench_set_err(err,
                      "bad convolution descriptor '%s': '%s' and '%s' are both "
                      "needed once that dimension is used",
                      str, ik, kk);
        return -1;
    }
    int64_t in = raw->value[F_IN + i], k = raw->value[F_KER + i];
    int64_t s = raw->given[F_STR + i] ? raw->value[F_STR + i] : 1;
    int64_t dl = raw->given[F_DIL + i] ? raw->value[F_DIL + i] : 0;
    if (in <= 0 || k <= 0 || s <= 0) {
        const char *key = in <= 0 ? ik : k <= 0 ? kk : sk;
        bench_set_err(
                err,
                "bad convolution descriptor '%s': '%s0': sizes and strides "
                "must be positive",
                str, key);
        return -1;
    }
    int64_t ext;
    if (!bench_mul_i64(k - 1, dl + 1, &ext) || !bench_add_i64(ext, 1, &ext))
        return dim_overflow(str, ik, err);
    int64_t out, pad;
    if (!raw->given[F_OUT + i]) {
        pad = raw->given[F_PAD + i] ? raw->value[F_PAD + i] : 0;
        int64_t span = in + 2 * pad - ext;
        if (span < 0) {
            bench_set_err(err,
                          "bad convolution descriptor '%s': kernel '%s%lld' "
                          "(extent %lld) does not fit '%s%lld' padded by %lld",
                          str, kk, (long long)k, (long long)ext, ik,
                          (long long)in, (long long)pad);
            return -1;
        }
        out = span / s + 1;
    } else {
        out = raw->value[F_OUT + i];
        if (out <= 0) {
            bench_set_err(
                    err,
                    "bad convolution descriptor '%s': '%s0': sizes must be "
                    "positive",
                    str, ok);
            return -1;
        }
        if (raw->given[F_PAD + i]) {
            pad = raw->value[F_PAD + i];
        } else {
            /* Halved toward zero as oneDNN does: a stride that leaves the
             * last input unused (twice == -1) still means no padding. */
            int64_t twice;
            if (!output_span(out, s, in, ext, &twice))
                return dim_overflow(str, ik, err);
            if (twice / 2 < 0) {
                bench_set_err(
                        err,
                        "bad convolution descriptor '%s': '%s%lld' is "
                        "smaller than '%s%lld' with kernel '%s%lld' gives",
                        str, ok, (long long)out, ik, (long long)in, kk,
                        (long long)k);
                return -1;
            }
            pad = twice / 2;
        }
    }
    int64_t pad_r;
    if (!output_span(out, s, in, ext, &pad_r) ||
        !bench_sub_i64(pad_r, pad, &pad_r))
        return dim_overflow(str, ik, err);
    if (pad_r <= -s) {
        bench_set_err(
                err,
                "bad convolution descriptor '%s': '%s%lld' is inconsistent "
                "with '%s%lld' '%s%lld' '%s%lld' '%s%lld' (the input gives "
                "more outputs)",
                str, ok, (long long)out, ik, (long long)in, kk, (long long)k,
                sk, (long long)s, pk, (long long)pad);
        return -1;
    }
    d->in[i] = in;
    d->out[i] = out;
    d->ker[i] = k;
    d->str[i] = s;
    d->dil[i] = dl;
    d->pad[i] = pad;
    d->pad_r[i] = pad_r;
    return 0;
}

static void set_unit_dim(conv_desc_t *d, int i) {
    d->in[i] = d->out[i] = d->ker[i] = d->str[i] = 1;
    d->pad[i] = d->pad_r[i] = d->dil[i] = 0;
}

int conv_desc_parse_try(const char *str, conv_desc_t *desc, char *err) {
    if (!str || !*str) {
        bench_set_err(err, "empty convolution descriptor");
        return -1;
    }
    raw_desc_t raw;
    memset(&raw, 0, sizeof(raw));
    conv_desc_t d;
    memset(&d, 0, sizeof(d));
    if (parse_entries(str, &raw, &d, err) != 0)
        return -1;

    d.has_groups = raw.given[F_G];
    d.g = raw.given[F_G] ? raw.value[F_G] : 1;
    d.mb = raw.given[F_MB] ? raw.value[F_MB] : 2;
    if (!raw.given[F_IC] || !raw.given[F_OC]) {
        bench_set_err(
                err,
                "bad convolution descriptor '%s': 'ic' and 'oc' are required",
                str);
        return -1;
    }
    d.ic = raw.value[F_IC];
    d.oc = raw.value[F_OC];
    const int chan_f[] = {F_G, F_MB, F_IC, F_OC};
    const int64_t chan_v[] = {d.g, d.mb, d.ic, d.oc};
    for (int j = 0; j < 4; j++) {
        if (chan_v[j] <= 0) {
            bench_set_err(err,
                          "bad convolution descriptor '%s': '%s0': must be "
                          "positive",
                          str, field_keys[chan_f[j]]);
            return -1;
        }
    }
    if (d.ic % d.g != 0 || d.oc % d.g != 0) {
        bench_set_err(
                err,
                "bad convolution descriptor '%s': 'g%lld' does not divide "
                "'ic%lld' and 'oc%lld'",
                str, (long long)d.g, (long long)d.ic, (long long)d.oc);
        return -1;
    }

    int first; /* first spatial dim the problem has */
    if (dim_mentioned(&raw, CONV_D))
        first = CONV_D;
    else if (dim_mentioned(&raw, CONV_H))
        first = CONV_H;
    else if (dim_mentioned(&raw, CONV_W))
        first = CONV_W;
    else {
        bench_set_err(
                err,
                "bad convolution descriptor '%s': no spatial size (give at "
                "least an input size and a kernel, e.g. 'ih' and 'kh')",
                str);
        return -1;
    }
    d.ndims = 2 + CONV_NSPATIAL - first;
    for (int i = first + 1; i < CONV_NSPATIAL; i++)
        if (!dim_mentioned(&raw, i))
            copy_dim(&raw, i, i - 1);
    for (int i = 0; i < CONV_NSPATIAL; i++) {
        if (i < first)
            set_unit_dim(&d, i);
        else if (resolve_dim(&raw, i, str, &d, err) != 0)
            return -1;
    }
    *desc = d;
    return 0;
}

int64_t conv_desc_kernel_extent(const conv_desc_t *d, int i) {
    return (d->ker[i] - 1) * (d->dil[i] + 1) + 1;
}

int conv_desc_equal(const conv_desc_t *a, const conv_desc_t *b) {
    if (a->g != b->g || a->mb != b->mb || a->ic != b->ic || a->oc != b->oc ||
        a->has_groups != b->has_groups || a->ndims != b->ndims ||
        strcmp(a->name, b->name) != 0)
        return 0;
    for (int i = 0; i < CONV_NSPATIAL; i++)
        if (a->in[i] != b->in[i] || a->out[i] != b->out[i] ||
            a->ker[i] != b->ker[i] || a->str[i] != b->str[i] ||
            a->pad[i] != b->pad[i] || a->pad_r[i] != b->pad_r[i] ||
            a->dil[i] != b->dil[i])
            return 0;
    return 1;
}

static int same_dims(const conv_desc_t *d, int a, int b) {
    return d->in[a] == d->in[b] && d->out[a] == d->out[b] &&
           d->ker[a] == d->ker[b] && d->str[a] == d->str[b] &&
           d->pad[a] == d->pad[b] && d->dil[a] == d->dil[b];
}

void conv_desc_print(const conv_desc_t *d, int canonical, char *buf,
                     size_t len) {
    bench_line_t o = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    /* Which spatial dims to write: the smaller dims are left out when they
     * all equal the largest one (a square 2D or cubic 3D problem), as
     * oneDNN does, so either parser reads the other's output. */
    int first = 2 + CONV_NSPATIAL - d->ndims;
    int uniform = 1;
    for (int i = first + 1; i < CONV_NSPATIAL; i++)
        uniform = uniform && same_dims(d, i, first);
    int print[CONV_NSPATIAL] = {0, 0, 0};
    for (int i = first; i < CONV_NSPATIAL; i++)
        print[i] = i == first || canonical || !uniform;
    int strided = 0, dilated = 0;
    for (int i = first; i < CONV_NSPATIAL; i++) {
        strided |= d->str[i] != 1;
        dilated |= d->dil[i] != 0;
    }
    /* g1 written out means grouped weights, so g appears only when given. */
    if (d->has_groups)
        bench_appendf(&o, "g%lld", (long long)d->g);
    if (canonical || d->mb != 2)
        bench_appendf(&o, "mb%lld", (long long)d->mb);
    bench_appendf(&o, "ic%lld", (long long)d->ic);
    for (int i = 0; i < CONV_NSPATIAL; i++)
        if (print[i])
            bench_appendf(&o, "%s%lld", field_keys[F_IN + i],
                          (long long)d->in[i]);
    bench_appendf(&o, "oc%lld", (long long)d->oc);
    const int groups[] = {F_OUT, F_KER, F_STR, F_PAD, F_DIL};
    const int64_t *const values[] = {d->out, d->ker, d->str, d->pad, d->dil};
    for (int j = 0; j < 5; j++) {
        if ((groups[j] == F_STR && !strided && !canonical) ||
            (groups[j] == F_DIL && !dilated && !canonical))
            continue;
        for (int i = 0; i < CONV_NSPATIAL; i++)
            if (print[i])
                bench_appendf(&o, "%s%lld", field_keys[groups[j] + i],
                              (long long)values[j][i]);
    }
    if (d->name[0])
        bench_appendf(&o, "n\"%s\"", d->name);
}
