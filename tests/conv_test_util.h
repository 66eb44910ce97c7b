/* Helpers shared by the convolution API tests: building and running a
 * small convolution from plain arrays. */
#ifndef TESTS_CONV_TEST_UTIL_H
#define TESTS_CONV_TEST_UTIL_H

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tessera.h"

#define CHECK_STATUS(expr, expected) CHECK((expr) == (expected))

/* A convolution problem in plain arrays: data ranks 3..5, weights with
 * one more dim for groups; a bias of zero size means none. */
typedef struct {
    int ndims, wei_ndims;
    tsr_dim_t src[5], wei[6], dst[5];
    tsr_dim_t bias; /* OC, or 0 */
    tsr_data_type_t sdt, wdt, bdt, ddt;
    const char *stag, *wtag, *dtag;
    tsr_dim_t strides[3], dilates[3], pad_l[3], pad_r[3];
} conv_shape_t;

/* Gives every argument of `s` data type `dt` and the plain layout of its
 * rank (abc.., the bias "a"). */
static inline void conv_shape_set_plain(conv_shape_t *s, tsr_data_type_t dt) {
    static const char *const plain[] = {"",     "a",     "ab",    "abc",
                                        "abcd", "abcde", "abcdef"};
    s->sdt = s->wdt = s->bdt = s->ddt = dt;
    s->stag = s->dtag = plain[s->ndims];
    s->wtag = plain[s->wei_ndims];
}

static inline tsr_status_t conv_desc_make(const conv_shape_t *s,
                                          tsr_convolution_desc_t *desc) {
    tsr_memory_desc_t src, wei, bia, dst;
    tsr_status_t st;
    st = tsr_memory_desc_init_by_tag(&src, s->ndims, s->src, s->sdt, s->stag);
    if (st != tsr_success)
        return st;
    st = tsr_memory_desc_init_by_tag(&wei, s->wei_ndims, s->wei, s->wdt,
                                     s->wtag);
    if (st != tsr_success)
        return st;
    st = tsr_memory_desc_init_by_tag(&dst, s->ndims, s->dst, s->ddt, s->dtag);
    if (st != tsr_success)
        return st;
    if (s->bias) {
        st = tsr_memory_desc_init_by_tag(&bia, 1, &s->bias, s->bdt, "a");
        if (st != tsr_success)
            return st;
    }
    return tsr_convolution_forward_desc_init(
            desc, tsr_forward_inference, tsr_convolution_direct, &src, &wei,
            s->bias ? &bia : NULL, &dst, s->strides, s->dilates, s->pad_l,
            s->pad_r);
}

/* The pd of implementation `impl` for `s` (NULL: the first listed). */
static inline tsr_status_t conv_pd_make_impl(const conv_shape_t *s,
                                             tsr_primitive_attr_t attr,
                                             tsr_engine_t engine,
                                             const char *impl,
                                             tsr_primitive_desc_t *pd) {
    tsr_convolution_desc_t desc;
    tsr_status_t st = conv_desc_make(s, &desc);
    if (st != tsr_success)
        return st;
    st = tsr_primitive_desc_create(pd, &desc, attr, engine);
    while (st == tsr_success && impl &&
           strcmp(tsr_primitive_desc_impl_name(*pd), impl) != 0) {
        st = tsr_primitive_desc_next_impl(*pd);
        if (st != tsr_success) {
            tsr_primitive_desc_destroy(*pd);
            *pd = NULL;
        }
    }
    return st;
}

/* The reference's pd: these tests check the reference and the API around
 * it, skipping the optimized implementations listed before it. */
static inline tsr_status_t conv_pd_make(const conv_shape_t *s,
                                        tsr_primitive_attr_t attr,
                                        tsr_engine_t engine,
                                        tsr_primitive_desc_t *pd) {
    return conv_pd_make_impl(s, attr, engine, "ref:any", pd);
}

/* One execution argument given as a descriptor and a user buffer. */
typedef struct {
    int arg;
    const tsr_memory_desc_t *md;
    void *data;
} test_arg_t;

#define TEST_MAX_ARGS 16

/* Wraps the buffers in memory objects, executes, and destroys them. */
static tsr_status_t run_primitive(tsr_primitive_t prim, tsr_engine_t engine,
                                  tsr_stream_t stream, int nargs,
                                  const test_arg_t *targs) {
    tsr_exec_arg_t args[TEST_MAX_ARGS];
    memset(args, 0, sizeof(args));
    if (nargs > TEST_MAX_ARGS)
        return tsr_invalid_arguments;
    int created = 0;
    tsr_status_t st = tsr_success;
    for (int i = 0; i < nargs && st == tsr_success; i++) {
        st = tsr_memory_create(&args[i].memory, targs[i].md, engine,
                               targs[i].data);
        args[i].arg = targs[i].arg;
        if (st == tsr_success)
            created++;
    }
    if (st == tsr_success)
        st = tsr_primitive_execute(prim, stream, nargs, args);
    for (int i = 0; i < created; i++)
        tsr_memory_destroy(args[i].memory);
    return st;
}

/* Writes the src, weights, bias (when `bia` is given) and dst arguments of
 * a convolution pd, at the descriptors it chose, into args[]; returns
 * their count. */
static inline int conv_pd_args(test_arg_t *args, const_tsr_primitive_desc_t pd,
                               void *src, void *wei, void *bia, void *dst) {
    int n = 0;
    args[n++] = (test_arg_t){TSR_ARG_SRC,
                             tsr_primitive_desc_query_md(pd, tsr_query_src_md),
                             src};
    args[n++] = (test_arg_t){
            TSR_ARG_WEIGHTS,
            tsr_primitive_desc_query_md(pd, tsr_query_weights_md), wei};
    if (bia)
        args[n++] = (test_arg_t){
                TSR_ARG_BIAS,
                tsr_primitive_desc_query_md(pd, tsr_query_bias_md), bia};
    args[n++] = (test_arg_t){TSR_ARG_DST,
                             tsr_primitive_desc_query_md(pd, tsr_query_dst_md),
                             dst};
    return n;
}

/* Runs `s` on implementation `impl` (NULL: the first listed) with `attr`,
 * the buffers and up to TEST_MAX_ARGS - 4 extra arguments; the name of the
 * implementation that ran goes to *impl_name when it is given. */
static inline tsr_status_t
conv_run_impl(const conv_shape_t *s, tsr_primitive_attr_t attr,
              tsr_engine_t engine, tsr_stream_t stream, const char *impl,
              void *src, void *wei, void *bia, void *dst, int nextra,
              const test_arg_t *extra, const char **impl_name) {
    tsr_primitive_desc_t pd;
    tsr_status_t st = conv_pd_make_impl(s, attr, engine, impl, &pd);
    if (st != tsr_success)
        return st;
    if (impl_name)
        *impl_name = tsr_primitive_desc_impl_name(pd);
    tsr_primitive_t prim;
    st = tsr_primitive_create(&prim, pd);
    if (st == tsr_success) {
        test_arg_t args[TEST_MAX_ARGS];
        int n = conv_pd_args(args, pd, src, wei, bia, dst);
        if (nextra > TEST_MAX_ARGS - n) {
            st = tsr_invalid_arguments;
        } else {
            for (int i = 0; i < nextra; i++)
                args[n++] = extra[i];
            st = run_primitive(prim, engine, stream, n, args);
        }
        tsr_primitive_destroy(prim);
    }
    tsr_primitive_desc_destroy(pd);
    return st;
}

/* A dense 1D descriptor, for scales and zero points. */
static inline tsr_memory_desc_t md_1d(tsr_dim_t n, tsr_data_type_t dt) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    tsr_memory_desc_init_by_tag(&md, 1, &n, dt, "a");
    return md;
}

#endif
