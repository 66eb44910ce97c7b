/* Performance lines from a template of %[-0+][KMG]name% fields. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "perf_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked_math.h"
#include "run_header.h"

static const char default_template[] =
        "perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,"
        "%-Gflops%,%0time%,%0Gflops%";
static const char csv_template[] =
        "perf,%engine%,%impl%,%name%,%dir%,%cfg%,%tag%,%alg%,%attr%,%DESC%,"
        "%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%";

static char *custom_template; /* owned copy of a user template */
static int header_printed;

typedef enum {
    FIELD_TEXT,    /* a string of the problem */
    FIELD_NUMBER,  /* a count, unit prefix applies */
    FIELD_TIMED,   /* depends on min/avg/max time, unit prefix applies */
    FIELD_SAMPLES, /* every kept run time, ';'-separated */
} field_kind_t;

typedef struct {
    const char *name;
    field_kind_t kind;
    const char *title; /* csv header title */
} field_info_t;

static const field_info_t fields[] = {
        {"engine", FIELD_TEXT, "engine"},
        {"impl", FIELD_TEXT, "impl"},
        {"name", FIELD_TEXT, "name"},
        {"prb", FIELD_TEXT, "prb"},
        {"desc", FIELD_TEXT, "desc"},
        {"DESC", FIELD_TEXT, NULL}, /* the driver's column names */
        {"dir", FIELD_TEXT, "dir"},
        {"dt", FIELD_TEXT, "dt"},
        {"cfg", FIELD_TEXT, "cfg"},
        {"tag", FIELD_TEXT, "tag"},
        {"alg", FIELD_TEXT, "alg"},
        {"attr", FIELD_TEXT, "attr"},
        {"mb", FIELD_NUMBER, "mb"},
        {"ops", FIELD_NUMBER, "ops"},
        {"ibytes", FIELD_NUMBER, "ibytes"},
        {"obytes", FIELD_NUMBER, "obytes"},
        {"ctime", FIELD_NUMBER, "ctime(ms)"},
        {"time", FIELD_TIMED, "time(ms)"},
        {"flops", FIELD_TIMED, "flops"},
        {"bw", FIELD_TIMED, "bw"},
        /* Not measured here (no cycle counter): reported as 0, as oneDNN
         * does when it cannot measure them. */
        {"freq", FIELD_TIMED, "freq"},
        {"clocks", FIELD_TIMED, "clocks"},
        /* The run times one by one (ms), for rank tests between runs. */
        {"samples", FIELD_SAMPLES, "samples(ms)"},
};

typedef struct {
    char stat;        /* '-' min, '0' avg, '+' max */
    double unit;      /* 1, 1e3, 1e6, 1e9 */
    char unit_letter; /* 0, 'K', 'M', 'G' */
    const field_info_t *info;
} field_ref_t;

/* Parses the field between '%' signs, `text` of `len` characters. */
static int parse_field(const char *text, size_t len, field_ref_t *ref) {
    ref->stat = '-';
    ref->unit = 1;
    ref->unit_letter = 0;
    if (len > 0 && strchr("-0+", text[0])) {
        ref->stat = text[0];
        text++;
        len--;
    }
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const char *name = fields[i].name;
        size_t name_len = strlen(name);
        if (len < name_len)
            continue;
        size_t prefix = len - name_len;
        if (strncmp(text + prefix, name, name_len) != 0)
            continue;
        if (prefix == 1 && fields[i].kind != FIELD_TEXT &&
            fields[i].kind != FIELD_SAMPLES && strchr("KMG", text[0])) {
            ref->unit_letter = text[0];
            ref->unit = text[0] == 'K' ? 1e3 : text[0] == 'M' ? 1e6 : 1e9;
        } else if (prefix != 0) {
            continue;
        }
        ref->info = &fields[i];
        return 0;
    }
    return -1;
}

static int perf_template_validate(const char *tpl, char *err) {
    for (const char *p = tpl; *p; p++) {
        if (*p != '%')
            continue;
        const char *end = strchr(p + 1, '%');
        if (!end) {
            bench_set_err(err, "--perf-template: unterminated field '%s'", p);
            return -1;
        }
        field_ref_t ref;
        if (parse_field(p + 1, (size_t)(end - p - 1), &ref) != 0) {
            bench_set_err(err, "--perf-template: unknown field '%.*s'",
                          (int)(end - p + 1), p);
            return -1;
        }
        p = end;
    }
    return 0;
}

int perf_template_set_try(const char *value, char *err) {
    const char *tpl = value;
    int is_csv = 0;
    if (!strcmp(value, "def") || !strcmp(value, "default")) {
        tpl = default_template;
    } else if (!strcmp(value, "csv")) {
        tpl = csv_template;
        is_csv = 1;
    } else if (perf_template_validate(value, err) != 0) {
        return -1;
    }
    const char *old = bench_settings.perf_template;
    /* A different template starts over with its own header. */
    if (!old || strcmp(old, tpl) != 0)
        header_printed = 0;
    char *copy = NULL;
    if (tpl == value && !(copy = strdup(value))) {
        bench_set_err(err, "--perf-template: out of memory");
        return -1;
    }
    bench_settings.perf_template = copy ? copy : tpl;
    bench_settings.perf_template_is_csv = is_csv;
    free(custom_template);
    custom_template = copy;
    return 0;
}

static double timed_ms(const bench_timer_t *t, char stat) {
    return stat == '0' ? t->avg_ms : stat == '+' ? t->max_ms : t->min_ms;
}

static void print_text(const perf_fields_t *f, const char *name) {
    const char *v = "";
    if (!strcmp(name, "engine"))
        v = "cpu";
    else if (!strcmp(name, "impl"))
        v = f->impl;
    else if (!strcmp(name, "name")) {
        /* Quoted, as oneDNN prints it: names may hold commas. */
        if (f->name && f->name[0])
            printf("\"%s\"", f->name);
        return;
    } else if (!strcmp(name, "prb"))
        v = f->prb;
    else if (!strcmp(name, "desc"))
        v = f->desc;
    else if (!strcmp(name, "DESC")) {
        for (int i = 0; i < f->n_extra; i++)
            printf("%s%s", i ? "," : "", f->extra_value[i]);
        return;
    } else if (!strcmp(name, "dir"))
        v = f->dir;
    else if (!strcmp(name, "dt") || !strcmp(name, "cfg"))
        v = f->dt;
    else if (!strcmp(name, "tag"))
        v = f->tag;
    else if (!strcmp(name, "alg"))
        v = f->alg;
    else if (!strcmp(name, "attr"))
        v = f->attr;
    printf("%s", v ? v : "");
}

static void print_field(const perf_fields_t *f, const bench_timer_t *t,
                        const field_ref_t *r) {
    const char *name = r->info->name;
    if (r->info->kind == FIELD_TEXT) {
        print_text(f, name);
        return;
    }
    if (r->info->kind == FIELD_SAMPLES) {
        for (int i = 0; i < t->n_samples; i++)
            printf("%s%g", i ? ";" : "", t->samples_ms[i]);
        return;
    }
    double value = 0;
    double sec = timed_ms(t, r->stat) / 1e3;
    if (!strcmp(name, "mb"))
        value = (double)f->mb;
    else if (!strcmp(name, "ops"))
        value = f->ops;
    else if (!strcmp(name, "ibytes"))
        value = f->ibytes;
    else if (!strcmp(name, "obytes"))
        value = f->obytes;
    else if (!strcmp(name, "ctime"))
        value = t->ctime_ms;
    else if (!strcmp(name, "time"))
        value = timed_ms(t, r->stat);
    else if (!strcmp(name, "flops"))
        value = sec > 0 ? f->ops / sec : 0;
    else if (!strcmp(name, "bw"))
        value = sec > 0 ? (f->ibytes + f->obytes) / sec : 0;
    printf("%g", value / r->unit);
}

static void print_title(const perf_fields_t *f, const field_ref_t *r) {
    if (!r->info->title) { /* DESC: the driver's columns */
        for (int i = 0; i < f->n_extra; i++)
            printf("%s%s", i ? "," : "", f->extra_name[i]);
        return;
    }
    if (r->info->kind == FIELD_TIMED)
        printf("%s_", r->stat == '0' ? "avg" : r->stat == '+' ? "max" : "min");
    if (r->unit_letter)
        printf("%c", r->unit_letter);
    printf("%s", r->info->title);
}

/* Walks the template, printing literal text and either values or, for the
 * csv header, column titles. */
static void expand_template(const char *tpl, const perf_fields_t *f,
                            const bench_timer_t *t, int titles) {
    for (const char *p = tpl; *p; p++) {
        const char *end = *p == '%' ? strchr(p + 1, '%') : NULL;
        field_ref_t ref;
        if (!end || parse_field(p + 1, (size_t)(end - p - 1), &ref) != 0) {
            putchar(*p);
            continue;
        }
        if (titles)
            print_title(f, &ref);
        else
            print_field(f, t, &ref);
        p = end;
    }
    putchar('\n');
}

void perf_fields_init(perf_fields_t *f, const res_t *res, const char *name,
                      const char *repro, const char *desc, double ibytes,
                      double obytes) {
    memset(f, 0, sizeof(*f));
    f->impl = res->impl_name;
    f->name = name;
    f->prb = repro;
    f->desc = desc;
    f->dir = f->dt = f->tag = f->alg = f->attr = "";
    f->ibytes = ibytes;
    f->obytes = obytes;
}

const char *perf_attr_text(const bench_attr_t *attr, char *buf, size_t len) {
    if (len > 0)
        buf[0] = '\0';
    if (attr)
        attr_to_repro(attr, 0, buf, len);
    return buf[0] == ' ' ? buf + 1 : buf;
}

void perf_fields_set_extra(perf_fields_t *f, int n, const char *const *names,
                           const int64_t *values,
                           char (*text)[PERF_EXTRA_LEN]) {
    for (int i = 0; i < n; i++) {
        snprintf(text[i], PERF_EXTRA_LEN, "%lld", (long long)values[i]);
        f->extra_name[i] = names[i];
        f->extra_value[i] = text[i];
    }
    f->n_extra = n;
}

void perf_report(const perf_fields_t *f, const bench_timer_t *t) {
    const char *tpl = bench_settings.perf_template;
    run_header_print_once();
    if (!header_printed) {
        if (bench_settings.perf_template_is_csv)
            expand_template(tpl, f, t, 1);
        else
            printf("Output template: %s\n", tpl);
        header_printed = 1;
    }
    expand_template(tpl, f, t, 0);
    fflush(stdout);
}

void perf_report_ncsp(perf_fields_t *f, const int64_t *dims, int ndims,
                      const bench_timer_t *t) {
    static const char *const names[] = {"n", "c", "sp"};
    const int64_t values[] = {dims[0], ndims > 1 ? dims[1] : 1,
                              bench_prod_i64_sat(dims + 2, ndims - 2)};
    char text[3][PERF_EXTRA_LEN];
    perf_fields_set_extra(f, 3, names, values, text);
    perf_report(f, t);
}
