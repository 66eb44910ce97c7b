/* Pieces sum and concat share (see multi_src.h). */
#include "sum/multi_src.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/dt_cfg.h"
#include "common/layout_tag.h"
#include "common/parser.h"
#include "common/perf_report.h"

int multi_src_split(const char *value, multi_src_list_t *list) {
    multi_src_list_t l;
    l.n = 0;
    for (const char *p = value;;) {
        const size_t len = strcspn(p, ":");
        if (len == 0 || len >= MULTI_SRC_ITEM_LEN || l.n == MULTI_SRC_MAX)
            return -1;
        memcpy(l.item[l.n], p, len);
        l.item[l.n++][len] = '\0';
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    *list = l;
    return 0;
}

int multi_src_broadcast(multi_src_list_t *list, int n) {
    if (list->n == n)
        return 0;
    if (list->n != 1 || n > MULTI_SRC_MAX)
        return -1;
    for (int i = 1; i < n; i++)
        memcpy(list->item[i], list->item[0], MULTI_SRC_ITEM_LEN);
    list->n = n;
    return 0;
}

void multi_src_join(const multi_src_list_t *list, char *buf, size_t len) {
    bench_line_t l = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    for (int i = 0; i < list->n; i++)
        bench_appendf(&l, "%s%s", i ? ":" : "", list->item[i]);
}

int multi_src_all_equal(const multi_src_list_t *list, const char *value) {
    for (int i = 0; i < list->n; i++)
        if (strcmp(list->item[i], value) != 0)
            return 0;
    return 1;
}

int multi_src_dt(const char *name, tsr_data_type_t *dt, char *text,
                 char *unsupported) {
    bench_dt_cfg_t cfg;
    if (strchr(name, ':') || bench_dt_cfg_parse_try(name, 0, &cfg, NULL) != 0)
        return -1;
    char lower[MULTI_SRC_ITEM_LEN]; /* name may be text itself */
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof(lower); k++)
        lower[k] = (char)tolower((unsigned char)name[k]);
    lower[k] = '\0';
    *dt = cfg.src;
    snprintf(unsupported, 16, "%s", cfg.unsupported);
    memcpy(text, lower, k + 1);
    return 0;
}

int multi_src_validate_dt(const char *option, const char *value, char *err) {
    tsr_data_type_t dt;
    char text[MULTI_SRC_ITEM_LEN], unsupported[16];
    if (strlen(value) < MULTI_SRC_ITEM_LEN &&
        multi_src_dt(value, &dt, text, unsupported) == 0)
        return 0;
    bench_set_err(err, "--%s: '%s' is not a data type", option, value);
    return -1;
}

int multi_src_validate_dts(const char *option, const char *value, char *err) {
    multi_src_list_t l;
    if (multi_src_split(value, &l) != 0) {
        bench_set_err(err, "--%s: bad list of data types '%s'", option, value);
        return -1;
    }
    for (int i = 0; i < l.n; i++)
        if (multi_src_validate_dt(option, l.item[i], err) != 0)
            return -1;
    return 0;
}

static int is_source_tag(const char *tag) {
    return strcmp(tag, "any") != 0 && strcmp(tag, "undef") != 0 &&
           bench_tag_is_valid(tag);
}

int multi_src_validate_tags(const char *option, const char *value, char *err) {
    multi_src_list_t l;
    if (multi_src_split(value, &l) != 0) {
        bench_set_err(err, "--%s: bad list of tags '%s'", option, value);
        return -1;
    }
    for (int i = 0; i < l.n; i++) {
        if (!is_source_tag(l.item[i]))
            return bench_tag_error(err, option, l.item[i]);
    }
    return 0;
}

int multi_src_validate_dtag(const char *option, const char *value, char *err) {
    if (strcmp(value, "undef") == 0 || strcmp(value, "any") == 0 ||
        is_source_tag(value))
        return 0;
    return bench_tag_error(err, option, value);
}

int multi_src_take_pd(bench_args_run_t *r, tsr_status_t st, res_t *res) {
    if (st != tsr_success) {
        r->pd = NULL;
        bench_set_status_state(res, st, "primitive descriptor");
        return 0;
    }
    while (!bench_impl_allowed(tsr_primitive_desc_impl_name(r->pd))) {
        if (tsr_primitive_desc_next_impl(r->pd) != tsr_success) {
            bench_set_state(res, STATE_SKIPPED, "skip-impl option hit");
            return 0; /* r->pd is released with the run */
        }
    }
    snprintf(res->impl_name, sizeof(res->impl_name), "%s",
             tsr_primitive_desc_impl_name(r->pd));
    return 1;
}

void multi_src_declare(bench_args_run_t *r, int n, bench_fill_fn fill,
                       int inplace) {
    bench_arg_decl_t decl[MULTI_SRC_MAX + 1];
    for (int i = 0; i < n && i < MULTI_SRC_MAX; i++)
        decl[i] = (bench_arg_decl_t){TSR_ARG_MULTIPLE_SRC + i, fill, 0, 0};
    const int nsrc = n < MULTI_SRC_MAX ? n : MULTI_SRC_MAX;
    decl[nsrc] = (bench_arg_decl_t){TSR_ARG_DST, NULL, 1,
                                    inplace ? TSR_ARG_MULTIPLE_SRC : 0};
    bench_args_declare(r, decl, nsrc + 1);
}

void multi_src_report_perf(const multi_src_perf_t *p, const bench_attr_t *attr,
                           const char *repro, double ibytes, double obytes,
                           res_t *res) {
    char attr_text[1024];
    perf_fields_t f;
    perf_fields_init(&f, res, p->name, repro, p->desc, ibytes, obytes);
    f.attr = perf_attr_text(attr, attr_text, sizeof(attr_text));
    f.dir = "FWD_D";
    f.dt = p->dt;
    f.tag = p->tag;
    f.mb = p->mb;
    perf_report(&f, &res->timer);
}
