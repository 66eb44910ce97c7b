/* f32 convolutions give the same bits on 1, 2 and 3 threads: the
 * optimized implementations cut work between threads (items per thread or
 * shared GEMMs, stages per thread or over all threads, a padding order
 * over as many images as the threads' items allow) but keep each
 * element's sum in one order. One shape per path whose split depends on
 * the thread count; the results themselves are checked against the
 * reference by the benchdnn batches. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "conv_test_util.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

/* Values with full mantissas, so a changed summation order shows. */
static void fill(float *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (float)((seed >> 8) & 0xffff) / 65536.f - 0.5f;
    }
}

static size_t count(const tsr_dim_t *dims, int ndims) {
    size_t n = 1;
    for (int i = 0; i < ndims; i++)
        n *= (size_t)dims[i];
    return n;
}

/* A 2D problem (ndims 4, no groups) in layout `tag` ("abcd" or "acdb"). */
static conv_shape_t shape_2d(tsr_dim_t mb, tsr_dim_t ic, tsr_dim_t ih,
                             tsr_dim_t oc, tsr_dim_t oh, tsr_dim_t k,
                             tsr_dim_t stride, tsr_dim_t pad, const char *tag) {
    conv_shape_t s;
    memset(&s, 0, sizeof(s));
    s.ndims = 4;
    s.wei_ndims = 4;
    const tsr_dim_t src[4] = {mb, ic, ih, ih}, wei[4] = {oc, ic, k, k},
                    dst[4] = {mb, oc, oh, oh};
    memcpy(s.src, src, sizeof(src));
    memcpy(s.wei, wei, sizeof(wei));
    memcpy(s.dst, dst, sizeof(dst));
    s.bias = oc;
    conv_shape_set_plain(&s, tsr_f32);
    s.stag = s.dtag = tag;
    for (int i = 0; i < 2; i++) {
        s.strides[i] = stride;
        s.pad_l[i] = pad;
        /* The right padding the output size implies. */
        s.pad_r[i] = (oh - 1) * stride + k - ih - pad;
    }
    return s;
}

/* Runs s on 1, 2 and 3 threads with a sum post-op (so the paths that
 * keep a C buffer run too) and checks that dst is bit for bit the same. */
static void check_thread_independent(const conv_shape_t *s, const char *what) {
    const size_t ns = count(s->src, s->ndims), nw = count(s->wei, s->wei_ndims),
                 nd = count(s->dst, s->ndims);
    float *src = malloc(ns * sizeof(float)), *wei = malloc(nw * sizeof(float));
    float *bia = malloc((size_t)s->bias * sizeof(float));
    float *dst0 = malloc(nd * sizeof(float)), *dst = malloc(nd * sizeof(float));
    tsr_primitive_attr_t attr = NULL;
    tsr_post_ops_t ops = NULL;
    if (!CHECK(src && wei && bia && dst0 && dst))
        goto done;
    fill(src, ns, 1);
    fill(wei, nw, 2);
    fill(bia, (size_t)s->bias, 3);
    CHECK_STATUS(tsr_primitive_attr_create(&attr), tsr_success);
    CHECK_STATUS(tsr_post_ops_create(&ops), tsr_success);
    CHECK_STATUS(tsr_post_ops_append_sum(ops, 0.5f, 0, tsr_data_type_undef),
                 tsr_success);
    CHECK_STATUS(tsr_primitive_attr_set_post_ops(attr, ops), tsr_success);
    const int saved = omp_get_max_threads();
    for (int nthr = 1; nthr <= 3; nthr++) {
        float *out = nthr == 1 ? dst0 : dst;
        fill(out, nd, 4); /* the sum's old dst */
        omp_set_num_threads(nthr);
        const char *impl = NULL;
        if (!CHECK_STATUS(conv_run_impl(s, attr, engine, stream, NULL, src, wei,
                                        bia, out, 0, NULL, &impl),
                          tsr_success))
            break;
        if (nthr > 1 && memcmp(dst0, out, nd * sizeof(float)) != 0) {
            fprintf(stderr, "%s (%s): %d threads differ from 1\n", what, impl,
                    nthr);
            CHECK(!"dst does not depend on the thread count");
        }
    }
    omp_set_num_threads(saved);
done:
    if (ops)
        tsr_post_ops_destroy(ops);
    if (attr)
        tsr_primitive_attr_destroy(attr);
    free(src);
    free(wei);
    free(bia);
    free(dst0);
    free(dst);
}

int main(void) {
    CHECK_STATUS(tsr_engine_create(&engine, tsr_cpu, 0), tsr_success);
    CHECK_STATUS(tsr_stream_create(&stream, engine), tsr_success);
    const struct {
        conv_shape_t s;
        const char *what;
    } cases[] = {
            /* Channels-first, staged channels-last: a stride-2 1x1 copying
             * only the points it reads, and a 3x3, stages per thread (mb8)
             * or over all threads (mb1). */
            {shape_2d(8, 64, 14, 80, 7, 1, 2, 0, "abcd"), "nchw s2 1x1 mb8"},
            {shape_2d(1, 512, 14, 80, 7, 1, 2, 0, "abcd"), "nchw s2 1x1 mb1"},
            {shape_2d(8, 16, 13, 24, 13, 3, 1, 1, "abcd"), "nchw 3x3 mb8"},
            {shape_2d(1, 32, 20, 48, 20, 3, 1, 1, "abcd"), "nchw 3x3 mb1"},
            /* Channels-first unit 1x1: the GEMM's B in place or packed. */
            {shape_2d(2, 96, 28, 72, 28, 1, 1, 0, "abcd"), "nchw 1x1"},
            /* Channels-last: by taps in the padding order over several
             * small images, a unit 1x1 by taps, and in place. */
            {shape_2d(16, 16, 7, 40, 7, 3, 1, 1, "acdb"), "nhwc 3x3 7x7 mb16"},
            {shape_2d(1, 64, 30, 40, 15, 3, 2, 1, "acdb"), "nhwc 3x3 s2 mb1"},
            {shape_2d(4, 512, 7, 80, 7, 1, 1, 0, "acdb"), "nhwc 1x1 taps"},
            {shape_2d(4, 64, 14, 72, 14, 1, 1, 0, "acdb"), "nhwc 1x1"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_thread_independent(&cases[i].s, cases[i].what);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
