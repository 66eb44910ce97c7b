/* One primitive executed from several application threads at once, each
 * with its own memories, stream and (user scratchpad mode) scratchpad, as
 * tsr_primitive_execute allows: every thread's outputs equal a lone run's
 * bit for bit. In the ThreadSanitizer build (TSR_SANITIZE_THREAD) this is
 * the check that execution shares no mutable state, within the library's
 * OpenMP regions or between the callers' threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tensor_test_util.h"

#define APP_THREADS 3
#define RUNS_PER_THREAD 2
#define MAX_SET_ARGS 12

/* Every argument the primitives below may take; the pd says which. */
static const int candidate_args[] = {
        TSR_ARG_SRC,
        TSR_ARG_SRC_1,
        TSR_ARG_WEIGHTS,
        TSR_ARG_BIAS,
        TSR_ARG_DST,
        TSR_ARG_MULTIPLE_SRC + 0,
        TSR_ARG_MULTIPLE_SRC + 1,
        TSR_ARG_MULTIPLE_SRC + 2,
};
#define N_CANDIDATES ((int)(sizeof(candidate_args) / sizeof(candidate_args[0])))

/* One caller's memories for a primitive. */
typedef struct {
    int nargs;
    tsr_exec_arg_t args[MAX_SET_ARGS];
    int is_output[MAX_SET_ARGS];
} exec_set_t;

typedef struct {
    const_tsr_primitive_t prim;
    exec_set_t *set;
    tsr_status_t status;
} thread_job_t;

static void set_init(const_tsr_primitive_desc_t pd, exec_set_t *s) {
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < N_CANDIDATES; i++) {
        const int arg = candidate_args[i];
        const tsr_arg_usage_t usage =
                tsr_primitive_desc_query_arg_usage(pd, arg);
        if (usage == tsr_arg_unused)
            continue;
        tsr_memory_t mem = mem_of(tsr_primitive_desc_query_arg_md(pd, arg));
        if (!mem)
            continue;
        if (usage == tsr_arg_input)
            mem_fill(mem, i + 1);
        else
            mem_poison(mem, 0x5a);
        s->is_output[s->nargs] = usage == tsr_arg_output;
        s->args[s->nargs++] = (tsr_exec_arg_t){arg, mem};
    }
    const tsr_memory_desc_t *scratch_md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    if (scratch_md && tsr_memory_desc_get_size(scratch_md) > 0)
        s->args[s->nargs++] =
                (tsr_exec_arg_t){TSR_ARG_SCRATCHPAD, mem_of(scratch_md)};
}

static void set_fini(exec_set_t *s) {
    for (int i = 0; i < s->nargs; i++)
        tsr_memory_destroy(s->args[i].memory);
}

static void *run_job(void *p) {
    thread_job_t *job = p;
    tsr_stream_t own_stream;
    job->status = tsr_stream_create(&own_stream, engine);
    for (int r = 0; r < RUNS_PER_THREAD && job->status == tsr_success; r++)
        job->status = tsr_primitive_execute(job->prim, own_stream,
                                            job->set->nargs, job->set->args);
    if (job->status == tsr_success)
        tsr_stream_destroy(own_stream);
    return NULL;
}

static int outputs_equal(const exec_set_t *a, const exec_set_t *b) {
    for (int i = 0; i < a->nargs; i++) {
        if (!a->is_output[i])
            continue;
        const size_t size = tsr_memory_desc_get_size(mem_md(a->args[i].memory));
        if (memcmp(mem_data(a->args[i].memory), mem_data(b->args[i].memory),
                   size) != 0)
            return 0;
    }
    return 1;
}

/* Runs the primitive of `pd` alone, then from APP_THREADS threads at once,
 * and compares; takes ownership of pd. */
static void check_concurrent(const char *what, tsr_primitive_desc_t pd) {
    tsr_primitive_t prim;
    if (!CHECK(tsr_primitive_create(&prim, pd) == tsr_success)) {
        tsr_primitive_desc_destroy(pd);
        return;
    }
    exec_set_t lone, sets[APP_THREADS];
    set_init(pd, &lone);
    CHECK(tsr_primitive_execute(prim, stream, lone.nargs, lone.args) ==
          tsr_success);

    thread_job_t jobs[APP_THREADS];
    pthread_t threads[APP_THREADS];
    for (int t = 0; t < APP_THREADS; t++) {
        set_init(pd, &sets[t]);
        jobs[t] = (thread_job_t){prim, &sets[t], tsr_runtime_error};
    }
    for (int t = 0; t < APP_THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, run_job, &jobs[t]) == 0);
    for (int t = 0; t < APP_THREADS; t++) {
        pthread_join(threads[t], NULL);
        if (!CHECK(jobs[t].status == tsr_success) ||
            !CHECK(outputs_equal(&lone, &sets[t])))
            fprintf(stderr, "  %s (%s), thread %d\n", what,
                    tsr_primitive_desc_impl_name(pd), t);
        set_fini(&sets[t]);
    }
    set_fini(&lone);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
}

static tsr_primitive_attr_t user_scratchpad_attr(void) {
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scratchpad_mode(attr, tsr_scratchpad_mode_user);
    return attr;
}

static tsr_primitive_desc_t pd_of(const void *op_desc,
                                  const_tsr_primitive_attr_t attr) {
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, op_desc, attr, engine) == tsr_success);
    return pd;
}

/* A 2D convolution, kernel k, padding k / 2, the layouts "any". */
static void check_conv(const char *what, const_tsr_primitive_attr_t attr,
                       tsr_data_type_t sdt, tsr_data_type_t wdt,
                       tsr_data_type_t ddt, tsr_dim_t ic, tsr_dim_t oc,
                       tsr_dim_t hw, tsr_dim_t k) {
    const tsr_dim_t src_dims[4] = {2, ic, hw, hw}, wei_dims[4] = {oc, ic, k, k},
                    dst_dims[4] = {2, oc, hw, hw}, bia_dims[1] = {oc};
    const tsr_dim_t strides[2] = {1, 1}, dilates[2] = {0, 0},
                    pad[2] = {k / 2, k / 2};
    tsr_memory_desc_t src = md_of(4, src_dims, sdt, "any"),
                      wei = md_of(4, wei_dims, wdt, "any"),
                      bia = md_of(1, bia_dims, tsr_f32, "a"),
                      dst = md_of(4, dst_dims, ddt, "any");
    tsr_convolution_desc_t desc;
    CHECK(tsr_convolution_forward_desc_init(
                  &desc, tsr_forward_inference, tsr_convolution_direct, &src,
                  &wei, &bia, &dst, strides, dilates, pad, pad) == tsr_success);
    tsr_primitive_desc_t pd = pd_of(&desc, attr);
    if (pd)
        check_concurrent(what, pd);
}

static void check_ip_matmul(const_tsr_primitive_attr_t attr) {
    const tsr_dim_t src_dims[2] = {8, 64}, wei_dims[2] = {32, 64},
                    dst_dims[2] = {8, 32};
    tsr_memory_desc_t src = md_of(2, src_dims, tsr_f32, "ab"),
                      wei = md_of(2, wei_dims, tsr_f32, "any"),
                      dst = md_of(2, dst_dims, tsr_f32, "ab");
    tsr_inner_product_desc_t ip;
    CHECK(tsr_inner_product_forward_desc_init(&ip, tsr_forward_inference, &src,
                                              &wei, NULL, &dst) == tsr_success);
    tsr_primitive_desc_t pd = pd_of(&ip, attr);
    if (pd)
        check_concurrent("inner product f32", pd);

    const tsr_dim_t a_dims[2] = {16, 32}, b_dims[2] = {32, 24},
                    c_dims[2] = {16, 24};
    tsr_memory_desc_t a = md_of(2, a_dims, tsr_f32, "ab"),
                      b = md_of(2, b_dims, tsr_f32, "ab"),
                      c = md_of(2, c_dims, tsr_f32, "ab");
    tsr_matmul_desc_t mm;
    CHECK(tsr_matmul_desc_init(&mm, &a, &b, NULL, &c) == tsr_success);
    pd = pd_of(&mm, attr);
    if (pd)
        check_concurrent("matmul f32", pd);
}

static void check_elementwise(const_tsr_primitive_attr_t attr) {
    const tsr_dim_t dims[4] = {4, 32, 8, 8}, bcast[4] = {1, 32, 1, 1};
    tsr_memory_desc_t data = md_of(4, dims, tsr_f32, "acdb"),
                      blocked = md_of(4, dims, tsr_f32, "aBcd16b"),
                      per_channel = md_of(4, bcast, tsr_f32, "abcd");

    tsr_eltwise_desc_t eltwise;
    CHECK(tsr_eltwise_forward_desc_init(&eltwise, tsr_forward_inference,
                                        tsr_eltwise_gelu_tanh, &data, &data,
                                        0.f, 0.f) == tsr_success);
    tsr_primitive_desc_t pd = pd_of(&eltwise, attr);
    if (pd)
        check_concurrent("eltwise gelu_tanh", pd);

    tsr_binary_desc_t binary;
    CHECK(tsr_binary_desc_init(&binary, tsr_binary_add, &data, &per_channel,
                               &data) == tsr_success);
    pd = pd_of(&binary, attr);
    if (pd)
        check_concurrent("binary add", pd);

    tsr_prelu_desc_t prelu;
    CHECK(tsr_prelu_forward_desc_init(&prelu, tsr_forward_inference, &data,
                                      &per_channel, &data) == tsr_success);
    pd = pd_of(&prelu, attr);
    if (pd)
        check_concurrent("prelu", pd);

    tsr_shuffle_desc_t shuffle;
    CHECK(tsr_shuffle_forward_desc_init(&shuffle, tsr_forward_inference, &data,
                                        NULL, 1, 4) == tsr_success);
    pd = pd_of(&shuffle, attr);
    if (pd)
        check_concurrent("shuffle", pd);

    if (CHECK(tsr_reorder_primitive_desc_create(&pd, &data, engine, &blocked,
                                                engine, attr) == tsr_success))
        check_concurrent("reorder", pd);

    const tsr_memory_desc_t sources[2] = {data, blocked};
    const float scales[2] = {0.5f, 2.f};
    if (CHECK(tsr_sum_primitive_desc_create(&pd, NULL, 2, scales, sources, attr,
                                            engine) == tsr_success))
        check_concurrent("sum", pd);
    if (CHECK(tsr_concat_primitive_desc_create(&pd, NULL, 2, 1, sources, attr,
                                               engine) == tsr_success))
        check_concurrent("concat", pd);
}

int main(void) {
    tensor_test_begin();
    tsr_primitive_attr_t user = user_scratchpad_attr();
    /* A 1x1 and a 3x3 convolution take different implementations (and
     * scratchpads); int8 has its own kernels. */
    check_conv("conv f32 1x1", user, tsr_f32, tsr_f32, tsr_f32, 32, 48, 7, 1);
    check_conv("conv f32 3x3", user, tsr_f32, tsr_f32, tsr_f32, 16, 32, 10, 3);
    check_conv("conv u8:s8:f32 3x3", user, tsr_u8, tsr_s8, tsr_f32, 16, 32, 10,
               3);
    check_ip_matmul(user);
    check_elementwise(user);
    tsr_primitive_attr_destroy(user);
    tensor_test_end();
    return check_failures() != 0;
}
