/* One zeropad problem: a tensor of 0xFF bytes, tsr_memory_zero_pad, the
 * byte check of every padded point, and the performance line (bytes in 0,
 * out the padded size less the plain size, as oneDNN counts them). */
#include <stdio.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/dnn_mem.h"
#include "common/layout_tag.h"
#include "common/parser.h"
#include "common/timer.h"
#include "reorder/reorder_perf.h"
#include "zeropad/zeropad.h"

#define FILL_BYTE 0xFF

/* tessera.h's blocking: outer blocks by strides, then the row-major
 * position within the inner blocks, innermost block fastest. */
int64_t zeropad_offset(const tsr_memory_desc_t *md, const int64_t *pos) {
    const tsr_blocking_desc_t *b = &md->blocking;
    int64_t block[TSR_MAX_NDIMS], rem[TSR_MAX_NDIMS];
    for (int d = 0; d < TSR_MAX_NDIMS; d++)
        block[d] = 1;
    for (int k = 0; k < b->inner_nblks; k++)
        block[b->inner_idxs[k]] *= b->inner_blks[k];
    int64_t off = md->offset0;
    for (int d = 0; d < md->ndims; d++) {
        off += pos[d] / block[d] * b->strides[d];
        rem[d] = pos[d] % block[d];
    }
    int64_t inner_stride = 1;
    for (int k = b->inner_nblks - 1; k >= 0; k--) {
        const int d = (int)b->inner_idxs[k];
        off += rem[d] % b->inner_blks[k] * inner_stride;
        rem[d] /= b->inner_blks[k];
        inner_stride *= b->inner_blks[k];
    }
    return off;
}

/* Points of the padded dims (the memory exists: the product fits). */
static int64_t padded_points(const tsr_memory_desc_t *md) {
    return bench_prod_i64_sat(md->padded_dims, md->ndims);
}

/* Point `l` of the padded dims, row-major; returns 1 when it is a logical
 * element, 0 when it lies in the padding. */
static int padded_pos(const tsr_memory_desc_t *md, int64_t l, int64_t *pos) {
    int logical = 1;
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = l % md->padded_dims[d];
        l /= md->padded_dims[d];
        logical &= pos[d] < md->dims[d];
    }
    return logical;
}

/* The first byte of point `l` that is not what it should be, or -1. */
static int wrong_byte(const tsr_memory_desc_t *md, const uint8_t *data,
                      int64_t l, int64_t *pos, int *logical) {
    const size_t esize = tsr_data_type_size(md->data_type);
    *logical = padded_pos(md, l, pos);
    const uint8_t expected = *logical ? FILL_BYTE : 0;
    const uint8_t *e = data + (size_t)zeropad_offset(md, pos) * esize;
    for (size_t k = 0; k < esize; k++)
        if (e[k] != expected)
            return (int)k;
    return -1;
}

void zeropad_check(const tsr_memory_desc_t *md, const uint8_t *data,
                   res_t *res) {
    const int64_t n = padded_points(md);
    int64_t errors = 0;
#pragma omp parallel for schedule(static) reduction(+ : errors)
    for (int64_t l = 0; l < n; l++) {
        int64_t pos[TSR_MAX_NDIMS];
        int logical;
        errors += wrong_byte(md, data, l, pos, &logical) >= 0;
    }
    res->errors = errors;
    res->total = n;
    res->state = errors ? STATE_FAILED : STATE_PASSED;
    const size_t esize = tsr_data_type_size(md->data_type);
    for (int64_t l = 0, shown = 0; l < n && shown < errors && shown < 10; l++) {
        int64_t pos[TSR_MAX_NDIMS];
        int logical;
        const int k = wrong_byte(md, data, l, pos, &logical);
        if (k < 0)
            continue;
        char coords[256];
        bench_line_t c = {coords, sizeof(coords), 0};
        coords[0] = '\0';
        for (int d = 0; d < md->ndims; d++)
            bench_appendf(&c, "%s%lld", d ? "," : "", (long long)pos[d]);
        const int64_t off = zeropad_offset(md, pos);
        printf("[%lld][%s] %s element, byte %d: got 0x%02x, expected "
               "0x%02x\n",
               (long long)off, coords, logical ? "logical" : "padded", k,
               data[(size_t)off * esize + (size_t)k], logical ? FILL_BYTE : 0);
        shown++;
    }
}

static int zero_pad_once(void *ctx) {
    return tsr_memory_zero_pad(ctx) != tsr_success;
}

static void report_perf(const zeropad_prb_t *p, const tsr_memory_desc_t *md,
                        const char *repro, res_t *res) {
    char tag[64];
    bench_resolve_tag(p->tag, p->desc.ndims, tag, sizeof(tag));
    const double plain =
            (double)dims_desc_nelems(&p->desc) * tsr_data_type_size(p->dt);
    const reorder_perf_t perf = {
            .desc = &p->desc,
            .repro = repro,
            .dt = p->dt_text,
            .tag = tag,
            .ibytes = 0,
            .obytes = (double)tsr_memory_desc_get_size(md) - plain,
    };
    reorder_perf_report(&perf, res);
}

void zeropad_run_problem(const zeropad_prb_t *p, const char *repro,
                         res_t *res) {
    if (p->dt == tsr_data_type_undef) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported", p->dt_text);
        return;
    }
    tsr_memory_desc_t md;
    if (!bench_check_nelems("src", p->desc.ndims, p->desc.dims, res) ||
        !bench_md_init_by_tag(&md, p->desc.ndims, p->desc.dims, p->dt, p->tag,
                              "--tag", "src", res))
        return;
    const size_t size = tsr_memory_desc_get_size(&md);
    if (!bench_mem_check(size, res))
        return;
    snprintf(res->impl_name, sizeof(res->impl_name), "zero_pad");
    dnn_mem_t m;
    tsr_status_t st = dnn_mem_create(&m, &md);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "memory");
        return;
    }
    res->state = STATE_EXECUTED;
    if (bench_settings.mode & MODE_INIT)
        res->state = STATE_INITIALIZED;
    else if (bench_settings.mode & (MODE_CORR | MODE_BITWISE | MODE_PERF)) {
        memset(m.data, FILL_BYTE, size);
        st = tsr_memory_zero_pad(m.mem);
        if (st != tsr_success)
            bench_set_state(res, STATE_FAILED, "tsr_memory_zero_pad: %s",
                            tsr_status2str(st));
        else if (bench_settings.mode & (MODE_CORR | MODE_BITWISE))
            zeropad_check(&md, m.data, res);
    }
    if ((bench_settings.mode & MODE_PERF) && res->state != STATE_FAILED &&
        res->state != STATE_INITIALIZED) {
        if (bench_time(&res->timer, zero_pad_once, m.mem) != 0)
            bench_set_state(res, STATE_FAILED,
                            "tsr_memory_zero_pad failed while timing");
        else
            report_perf(p, &md, repro, res);
    }
    dnn_mem_free(&m);
}
