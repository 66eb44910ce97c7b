/* The argument-keyed pipeline (see bench_args.h). */
#include "common/bench_args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_args_lib.h"
#include "common/checked_math.h"
#include "common/timer.h"

/* ------------------------------------------------------------------------ */
/* What drivers call */

void bench_set_state(res_t *res, res_state_t state, const char *fmt, ...) {
    res->state = state;
    va_list args;
    va_start(args, fmt);
    vsnprintf(res->reason, sizeof(res->reason), fmt, args);
    va_end(args);
}

void bench_set_status_state(res_t *res, tsr_status_t st, const char *what) {
    bench_set_state(res,
                    st == tsr_unimplemented   ? STATE_UNIMPLEMENTED
                    : st == tsr_out_of_memory ? STATE_SKIPPED
                                              : STATE_INVALID_ARGUMENTS,
                    "%s: %s", what, tsr_status2str(st));
}

float *bench_alloc_f32(int64_t n) {
    const size_t bytes = bench_bytes_sat(n > 0 ? n : 1, sizeof(float));
    return bytes == SIZE_MAX ? NULL : malloc(bytes);
}

int bench_args_create_fwd_pd(bench_args_run_t *r, const void *op_desc,
                             res_t *res) {
    return bench_create_pd(&r->fwd_pd, op_desc, NULL, NULL, 0, res);
}

int bench_args_create_pd(bench_args_run_t *r, const void *op_desc, res_t *res) {
    return bench_create_pd(&r->pd, op_desc, r->attr, r->fwd_pd, 1, res);
}

void bench_args_declare(bench_args_run_t *r, const bench_arg_decl_t *decl,
                        int n) {
    r->ndecl = n < BENCH_ARGS_MAX ? n : BENCH_ARGS_MAX;
    memcpy(r->decl, decl, sizeof(*decl) * (size_t)r->ndecl);
}

static const bench_arg_mem_t *find_mem(const bench_args_run_t *r, int arg) {
    for (int i = 0; i < r->nmems; i++)
        if (r->mems[i].arg == arg)
            return &r->mems[i];
    return NULL;
}

const float *bench_args_in(const bench_args_run_t *r, int arg) {
    const bench_arg_mem_t *m = find_mem(r, arg);
    return m && m->usage == tsr_arg_input ? m->f32 : NULL;
}

const float *bench_args_old(const bench_args_run_t *r, int arg) {
    const bench_arg_mem_t *m = find_mem(r, arg);
    return m ? m->old : NULL;
}

float *bench_args_ref(const bench_args_run_t *r, int arg) {
    const bench_arg_mem_t *m = find_mem(r, arg);
    return m ? m->ref : NULL;
}

const tsr_memory_desc_t *bench_args_md(const bench_args_run_t *r, int arg) {
    const bench_arg_mem_t *m = find_mem(r, arg);
    return m ? &m->mem.md : NULL;
}

double bench_index_uniform(uint64_t seed, int64_t index) {
    /* splitmix64 of (seed, index): well mixed even for neighbouring
     * indices. */
    uint64_t z = seed + (uint64_t)index * 0x9e3779b97f4a7c15ull +
                 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

void bench_md_idx2str(const void *ctx, int64_t idx, char *buf, size_t len) {
    const tsr_memory_desc_t *md = ctx;
    int64_t pos[TSR_MAX_NDIMS];
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = md->dims[d] > 0 ? idx % md->dims[d] : 0;
        idx = md->dims[d] > 0 ? idx / md->dims[d] : 0;
    }
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    for (int d = 0; d < md->ndims && used < len; d++) {
        const int n = snprintf(buf + used, len - used, "%s%lld", d ? "," : "",
                               (long long)pos[d]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* ------------------------------------------------------------------------ */
/* Memories */

static const bench_arg_decl_t *find_decl(const bench_args_run_t *r, int arg) {
    for (int i = 0; i < r->ndecl; i++)
        if (r->decl[i].arg == arg)
            return &r->decl[i];
    return NULL;
}

static int is_input(const bench_arg_mem_t *m) {
    return m->usage == tsr_arg_input || m->fwd_usage == tsr_arg_input;
}

/* The forward pass writes it: its values come from there, not a fill. */
static int from_forward(const bench_arg_mem_t *m) {
    return m->fwd_usage == tsr_arg_output;
}

static int checked(const bench_arg_mem_t *m) {
    return m->usage == tsr_arg_output && m->decl && m->decl->check;
}

static const char *arg_name(int arg) {
    static char buf[24];
    return bench_arg_name(arg, buf, sizeof(buf));
}

/* r->mems from the arguments the primitives use, without allocating. */
static int plan_mems(bench_args_run_t *r, res_t *res) {
    const bench_args_lib_t *lib = r->lib;
    const int with_fwd = lib->has_fwd(r);
    r->nmems = 0;
    for (int i = 0; i < bench_arg_id_count(); i++) {
        const int arg = bench_arg_id(i);
        tsr_arg_usage_t u, fu = tsr_arg_unused;
        tsr_memory_desc_t md, fwd_md;
        if (!lib->arg(r, 0, arg, &u, &md, res) ||
            (with_fwd && !lib->arg(r, 1, arg, &fu, &fwd_md, res)))
            return 0;
        if (u == tsr_arg_unused && fu == tsr_arg_unused)
            continue;
        if (r->nmems == BENCH_ARGS_MAX) {
            bench_set_state(res, STATE_UNIMPLEMENTED, "more than %d arguments",
                            BENCH_ARGS_MAX);
            return 0;
        }
        if (u && fu && !tsr_memory_desc_equal(&md, &fwd_md)) {
            bench_set_state(res, STATE_FAILED,
                            "forward and backward primitives describe %s "
                            "differently",
                            arg_name(arg));
            return 0;
        }
        bench_arg_mem_t *m = &r->mems[r->nmems++];
        memset(m, 0, sizeof(*m));
        m->arg = arg;
        m->usage = u;
        m->fwd_usage = fu;
        m->decl = find_decl(r, arg);
        m->mem.md = u ? md : fwd_md;
        m->alias = -1;
        m->n = tsr_memory_desc_nelems(&m->mem.md);
        if (is_input(m) && !from_forward(m) && !(m->decl && m->decl->fill)) {
            bench_set_state(res, STATE_FAILED,
                            "the driver gives no values for input %s",
                            arg_name(arg));
            return 0;
        }
    }
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (m->usage != tsr_arg_output || !m->decl || !m->decl->inplace_of)
            continue;
        for (int j = 0; j < r->nmems; j++)
            if (r->mems[j].arg == m->decl->inplace_of &&
                r->mems[j].usage == tsr_arg_input)
                m->alias = j;
        if (m->alias < 0 ||
            !tsr_memory_desc_equal(&m->mem.md, &r->mems[m->alias].mem.md)) {
            bench_set_state(res, STATE_SKIPPED,
                            "in place needs %s and %s to share a memory "
                            "descriptor",
                            arg_name(m->arg), arg_name(m->decl->inplace_of));
            return 0;
        }
    }
    return 1;
}

/* f32 buffers of one argument, in points. */
static double harness_points(const bench_arg_mem_t *m) {
    double copies = 0;
    if (is_input(m))
        copies += 1; /* f32 */
    if (m->usage == tsr_arg_output)
        copies += 1 + (checked(m) ? 2 : 0) + (m->decl && m->decl->fill);
    return copies * (double)m->n;
}

/* Bytes the problem needs: library memories and the harness' copies. */
static size_t memory_estimate(const bench_args_run_t *r) {
    double points = 0;
    for (int i = 0; i < r->nmems; i++)
        points += harness_points(&r->mems[i]);
    return bench_add_size_sat(r->lib->pd_bytes(r),
                              bench_bytes_from_double(points * sizeof(float)));
}

static const dnn_mem_t *mem_of(const bench_args_run_t *r,
                               const bench_arg_mem_t *m) {
    return m->alias >= 0 ? &r->mems[m->alias].mem : &m->mem;
}

/* Writes `values` into m's memory and reads back what it holds. */
static int store(dnn_mem_t *mem, float *values) {
    if (dnn_mem_from_f32(mem, values) != tsr_success)
        return 0;
    dnn_mem_to_f32(mem, values);
    return 1;
}

/* An input's values into its memory: the library's own layout through its
 * store hook, else the harness' conversion. */
static int store_input(bench_args_run_t *r, int i, float *values) {
    const int rc = r->lib->store ? r->lib->store(r, i, values) : -1;
    return rc >= 0 ? rc : store(&r->mems[i].mem, values);
}

static int alloc_and_fill(bench_args_run_t *r) {
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        const tsr_memory_desc_t md = m->mem.md;
        if (m->alias < 0 && dnn_mem_create(&m->mem, &md) != tsr_success)
            return 0;
        const int out = m->usage == tsr_arg_output;
        const int with_init = out && m->decl && m->decl->fill;
        if ((is_input(m) || out) && !(m->f32 = bench_alloc_f32(m->n)))
            return 0;
        if ((out && !(m->old = bench_alloc_f32(m->n))) ||
            (checked(m) && !(m->ref = bench_alloc_f32(m->n))) ||
            (with_init && !(m->init = bench_alloc_f32(m->n))))
            return 0;
        if (is_input(m) && !from_forward(m)) {
            m->decl->fill(r->prb, m->arg, m->f32, m->n);
            if (!store_input(r, i, m->f32))
                return 0;
        }
        if (with_init && m->alias < 0) {
            m->decl->fill(r->prb, m->arg, m->init, m->n);
            if (!store(&m->mem, m->init))
                return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Execution */

static int execute(const bench_args_run_t *r, int fwd, res_t *res) {
    char why[128];
    if (r->lib->execute(r, fwd, why, sizeof(why)))
        return 1;
    bench_set_state(res, STATE_FAILED, "%sexecution failed: %s",
                    fwd ? "forward " : "", why);
    return 0;
}

/* Runs the forward pass of a backward problem: its outputs are the
 * backward inputs, read as the memories hold them. */
static int run_forward(bench_args_run_t *r, res_t *res) {
    if (!r->lib->has_fwd(r))
        return 1;
    if (!execute(r, 1, res))
        return 0;
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (from_forward(m) && m->usage == tsr_arg_input)
            dnn_mem_to_f32(&m->mem, m->f32);
    }
    return 1;
}

/* Outputs back to their contents before execution: an in-place input's
 * values, or the output's own fill. */
static void restore_outputs(const bench_args_run_t *r) {
    for (int i = 0; i < r->nmems; i++) {
        const bench_arg_mem_t *m = &r->mems[i];
        if (m->usage != tsr_arg_output)
            continue;
        if (m->alias >= 0)
            dnn_mem_from_f32((dnn_mem_t *)mem_of(r, m), r->mems[m->alias].f32);
        else if (m->init)
            dnn_mem_from_f32((dnn_mem_t *)&m->mem, m->init);
    }
}

/* What each output held before execution; DST as a sum post-op reads it. */
static void read_old(bench_args_run_t *r) {
    const tsr_data_type_t sum_dt = bench_sum_dt(r->battr);
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (m->usage != tsr_arg_output)
            continue;
        dnn_mem_t view = *mem_of(r, m);
        if (m->arg == TSR_ARG_DST && sum_dt != tsr_data_type_undef)
            view.md.data_type = sum_dt;
        dnn_mem_to_f32(&view, m->old);
    }
}

/* Restores, runs, and reads each checked output into its f32 buffer (or
 * its ref buffer with `into_ref`). */
static int run_and_read(bench_args_run_t *r, int into_ref, res_t *res) {
    restore_outputs(r);
    if (!execute(r, 0, res))
        return 0;
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (checked(m))
            dnn_mem_to_f32(mem_of(r, m), into_ref ? m->ref : m->f32);
    }
    return 1;
}

static void compare_cfg_of(const bench_args_run_t *r,
                           const bench_args_ops_t *ops,
                           const bench_arg_mem_t *m, compare_cfg_t *cmp) {
    memset(cmp, 0, sizeof(*cmp));
    cmp->dt = m->mem.md.data_type;
    ops->compare_cfg(r, m->arg, cmp);
    if (!cmp->idx2str) {
        cmp->idx2str = bench_md_idx2str;
        cmp->idx_ctx = &m->mem.md;
    }
}

/* The reference, rounded to each output's type, against the results. */
static void check(bench_args_run_t *r, const bench_args_ops_t *ops,
                  res_t *res) {
    if (!ops->ref(r, res))
        return;
    const tsr_round_mode_t mode = r->battr->round_mode;
    int64_t errors = 0, total = 0;
    res_state_t state = STATE_PASSED;
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (!checked(m))
            continue;
        const tsr_data_type_t dt = m->mem.md.data_type;
        for (int64_t k = 0; k < m->n; k++)
            m->ref[k] = bench_round_to_dt(dt, m->ref[k], mode);
        compare_cfg_t cmp;
        compare_cfg_of(r, ops, m, &cmp);
        res_t one = *res;
        compare_f32(m->ref, m->f32, m->n, &cmp, &one);
        errors += one.errors;
        total += one.total;
        if (one.state == STATE_FAILED ||
            (one.state == STATE_MISTRUSTED && state == STATE_PASSED))
            state = one.state;
    }
    res->errors = errors;
    res->total = total;
    res->state = state;
}

/* `second_run` must repeat `first` bit for bit under `cmp`'s point
 * names: FAILED when not, PASSED when res was EXECUTED. */
static void compare_bitwise(const compare_cfg_t *cmp, const float *first,
                            const float *second_run, int64_t n, res_t *res) {
    compare_cfg_t exact = *cmp;
    exact.threshold = exact.abs_threshold = 0.f;
    exact.zero_trust = 1.f; /* all zeros still reproduce bit for bit */
    res_t second = *res;
    compare_f32(first, second_run, n, &exact, &second);
    if (second.state == STATE_FAILED)
        *res = second;
    else if (res->state == STATE_EXECUTED)
        res->state = STATE_PASSED;
}

/* --mode=B: two runs give the same bits in every checked output. */
static void check_bitwise(bench_args_run_t *r, const bench_args_ops_t *ops,
                          res_t *res) {
    if (!run_and_read(r, 1, res) || !run_and_read(r, 0, res))
        return;
    for (int i = 0; i < r->nmems && res->state != STATE_FAILED; i++) {
        const bench_arg_mem_t *m = &r->mems[i];
        if (!checked(m))
            continue;
        compare_cfg_t cmp;
        compare_cfg_of(r, ops, m, &cmp);
        compare_bitwise(&cmp, m->ref, m->f32, m->n, res);
    }
}

static int exec_once(void *ctx) {
    const bench_args_run_t *r = ctx;
    char why[128];
    return !r->lib->execute(r, 0, why, sizeof(why));
}

static void report_perf(bench_args_run_t *r, const bench_args_ops_t *ops,
                        const char *repro, res_t *res) {
    restore_outputs(r);
    if (bench_time(&res->timer, exec_once, r) != 0) {
        bench_set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    double ibytes = 0, obytes = 0;
    for (int i = 0; i < r->nmems; i++) {
        const bench_arg_mem_t *m = &r->mems[i];
        const double bytes = (double)tsr_memory_desc_get_size(&m->mem.md);
        if (m->usage == tsr_arg_input)
            ibytes += bytes;
        else if (m->usage == tsr_arg_output)
            obytes += bytes;
    }
    ops->report_perf(r, repro, ibytes, obytes, res);
}

/* ------------------------------------------------------------------------ */
/* Tessera's calls */

static int tessera_has_fwd(const bench_args_run_t *r) {
    return r->fwd_pd != NULL;
}

static int tessera_arg(const bench_args_run_t *r, int fwd, int arg,
                       tsr_arg_usage_t *usage, tsr_memory_desc_t *md,
                       res_t *res) {
    (void)res;
    const_tsr_primitive_desc_t pd = fwd ? r->fwd_pd : r->pd;
    *usage = tsr_primitive_desc_query_arg_usage(pd, arg);
    if (*usage != tsr_arg_unused)
        *md = *tsr_primitive_desc_query_arg_md(pd, arg);
    return 1;
}

static size_t tessera_pd_bytes(const bench_args_run_t *r) {
    return bench_pd_memory_bytes(r->pd) +
           (r->fwd_pd ? bench_pd_memory_bytes(r->fwd_pd) : 0);
}

static int tessera_bind(bench_args_run_t *r, const bench_args_ops_t *ops,
                        res_t *res) {
    (void)res;
    for (int i = 0; i < r->nmems; i++) {
        const bench_arg_mem_t *m = &r->mems[i];
        if (m->usage != tsr_arg_unused)
            bench_exec_args_add(r->args.a, &r->args.n, m->arg, mem_of(r, m));
        if (m->fwd_usage != tsr_arg_unused)
            bench_exec_args_add(r->fwd_args.a, &r->fwd_args.n, m->arg, &m->mem);
    }
    if (!bench_scratchpad_create(&r->scratchpad, r->pd, r->battr, r->args.a,
                                 &r->args.n))
        return 0;
    return bench_attr_mems_create(
            &r->attr_mems, r->battr, r->attr, r->scale_count, r->zp_count,
            ops->fill_binary_src1, r->bin_f32, r->args.a, &r->args.n);
}

static int tessera_execute(const bench_args_run_t *r, int fwd, char *why,
                           size_t len) {
    const bench_exec_args_t *a = fwd ? &r->fwd_args : &r->args;
    const tsr_status_t st = tsr_primitive_execute(fwd ? r->fwd_prim : r->prim,
                                                  bench_stream(), a->n, a->a);
    if (st == tsr_success)
        return 1;
    snprintf(why, len, "%s", tsr_status2str(st));
    return 0;
}

static void tessera_release(bench_args_run_t *r) {
    if (r->prim)
        tsr_primitive_destroy(r->prim);
    if (r->fwd_prim)
        tsr_primitive_destroy(r->fwd_prim);
    if (r->pd)
        tsr_primitive_desc_destroy(r->pd);
    if (r->fwd_pd)
        tsr_primitive_desc_destroy(r->fwd_pd);
    if (r->attr)
        tsr_primitive_attr_destroy(r->attr);
}

static int tessera_create_primitives(bench_args_run_t *r, res_t *res) {
    tsr_status_t st = tsr_primitive_create(&r->prim, r->pd);
    if (st != tsr_success) {
        r->prim = NULL;
        bench_set_status_state(res, st, "primitive");
        return 0;
    }
    if (!r->fwd_pd)
        return 1;
    st = tsr_primitive_create(&r->fwd_prim, r->fwd_pd);
    if (st != tsr_success) {
        r->fwd_prim = NULL;
        bench_set_status_state(res, st, "forward primitive");
        return 0;
    }
    return 1;
}

static const bench_args_lib_t tessera_lib = {
        .has_fwd = tessera_has_fwd,
        .arg = tessera_arg,
        .pd_bytes = tessera_pd_bytes,
        .create_primitives = tessera_create_primitives,
        .bind = tessera_bind,
        .execute = tessera_execute,
        .release = tessera_release,
};

/* ------------------------------------------------------------------------ */
/* The problem */

static void cleanup(bench_args_run_t *r) {
    r->lib->release(r);
    for (int i = 0; i < r->nmems; i++) {
        bench_arg_mem_t *m = &r->mems[i];
        if (m->alias < 0 && m->mem.mem)
            dnn_mem_free(&m->mem);
        free(m->f32);
        free(m->init);
        free(m->ref);
        free(m->old);
    }
    dnn_mem_free(&r->scratchpad);
    bench_attr_mems_free(&r->attr_mems);
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++)
        free(r->bin_f32[i]);
}

void bench_args_run_problem(const bench_args_ops_t *ops, bench_lib_t lib,
                            const void *prb, const bench_attr_t *attr,
                            const char *repro, res_t *res) {
    int (*create)(bench_args_run_t *, res_t *) = ops->create;
    const bench_args_lib_t *calls = &tessera_lib;
    if (lib == BENCH_LIB_ONEDNN) {
#ifdef BENCHDNN_WITH_ONEDNN
        calls = &bench_args_onednn_lib;
        create = ops->create_onednn;
#else
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "this benchdnn was built without oneDNN");
        return;
#endif
        if (!create) {
            bench_set_state(res, STATE_UNIMPLEMENTED,
                            "this driver has no oneDNN path");
            return;
        }
    }
    bench_args_run_t *r = calloc(1, sizeof(*r));
    if (!r) {
        bench_set_state(res, STATE_SKIPPED, "not enough memory");
        return;
    }
    r->prb = prb;
    r->battr = attr;
    r->lib = calls;
    for (int q = 0; q < QARG_COUNT; q++)
        r->scale_count[q] = r->zp_count[q] = -1;
    const int mode = bench_settings.mode;
    const double t0 = bench_now_ms(); /* creation time: pds and primitives */
    if (!create(r, res) || !plan_mems(r, res) ||
        !bench_mem_check(memory_estimate(r), res) ||
        !calls->create_primitives(r, res))
        goto out;
    res->timer.ctime_ms = bench_now_ms() - t0;
    if (mode & MODE_INIT) {
        res->state = STATE_INITIALIZED;
        goto out;
    }
    if (!alloc_and_fill(r) || !calls->bind(r, ops, res)) {
        bench_set_state(res, STATE_SKIPPED,
                        "not enough memory for the buffers");
        goto out;
    }
    if (!run_forward(r, res))
        goto out;
    restore_outputs(r);
    read_old(r);
    res->state = STATE_EXECUTED;
    if ((mode & MODE_CORR) && run_and_read(r, 0, res))
        check(r, ops, res);
    if ((mode & MODE_BITWISE) && res->state != STATE_FAILED)
        check_bitwise(r, ops, res);
    if ((mode & MODE_PERF) && res->state != STATE_FAILED)
        report_perf(r, ops, repro, res);
out:
    cleanup(r);
    free(r);
}
