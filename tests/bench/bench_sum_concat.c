/* Timing tool for the memory-bound multi-source primitives (not a test):
 * f32 sum of two sources, concat of two sources on the channel axis and
 * channel shuffle, each over 64 MiB tensors, against a STREAM-style copy
 * of 64 MiB measured in the same run. Prints the best time of about a
 * second of repetitions, the GB/s (each source read once, dst written
 * once) and the ratio to the copy.
 *
 *   bench_sum_concat [MiB]   (default 64)
 *
 * Threads follow OMP_NUM_THREADS; the ISA follows TSR_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef void (*bench_fn)(void *ctx);

/* Best time of `fn` over about a second (at least 5 runs, after one
 * warm-up). */
static double best_time(bench_fn fn, void *ctx) {
    fn(ctx);
    double best = 1e30, start = now_s();
    for (int runs = 0; runs < 5 || now_s() - start < 1.0; runs++) {
        const double t0 = now_s();
        fn(ctx);
        const double t = now_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

typedef struct {
    float *a, *b;
    size_t n;
} copy_ctx_t;

static void stream_copy(void *ctx) {
    copy_ctx_t *c = ctx;
    float *restrict b = c->b;
    const float *restrict a = c->a;
    const long n = (long)c->n;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        b[i] = a[i];
}

typedef struct {
    tsr_primitive_t prim;
    tsr_stream_t stream;
    int nargs;
    tsr_exec_arg_t args[3];
} prim_ctx_t;

static void run_prim(void *ctx) {
    prim_ctx_t *c = ctx;
    if (tsr_primitive_execute(c->prim, c->stream, c->nargs, c->args) !=
        tsr_success) {
        fprintf(stderr, "bench_sum_concat: execution failed\n");
        exit(2);
    }
}

static tsr_memory_t filled_memory(const tsr_memory_desc_t *md,
                                  tsr_engine_t engine) {
    tsr_memory_t mem = NULL;
    if (tsr_memory_create(&mem, md, engine, TSR_MEMORY_ALLOCATE) !=
        tsr_success) {
        fprintf(stderr, "bench_sum_concat: out of memory\n");
        exit(2);
    }
    void *data = NULL;
    tsr_memory_get_data_handle(mem, &data);
    memset(data, 0x3c, tsr_memory_desc_get_size(md)); /* touch every page */
    return mem;
}

/* Times the primitive of `pd` with sources args[0..nargs-2] and dst last,
 * all created here from the pd's descriptors, and prints its line. */
static void bench_pd(const char *name, tsr_primitive_desc_t pd, int nsrc,
                     const int *src_args, tsr_engine_t engine,
                     tsr_stream_t stream, double copy_gbs) {
    prim_ctx_t c = {NULL, stream, nsrc + 1, {{0, NULL}}};
    double bytes = 0;
    for (int i = 0; i <= nsrc; i++) {
        const int arg = i < nsrc ? src_args[i] : TSR_ARG_DST;
        const tsr_memory_desc_t *md = tsr_primitive_desc_query_arg_md(pd, arg);
        c.args[i] = (tsr_exec_arg_t){arg, filled_memory(md, engine)};
        bytes += (double)tsr_memory_desc_get_size(md);
    }
    tsr_primitive_create(&c.prim, pd);
    const double t = best_time(run_prim, &c);
    printf("%-24s %-20s %8.3f ms %7.2f GB/s %5.1f%% of copy\n", name,
           tsr_primitive_desc_impl_name(pd), t * 1e3, bytes / t * 1e-9,
           100.0 * bytes / t * 1e-9 / copy_gbs);
    tsr_primitive_destroy(c.prim);
    for (int i = 0; i <= nsrc; i++)
        tsr_memory_destroy(c.args[i].memory);
}

int main(int argc, char **argv) {
    const long mib = argc > 1 ? atol(argv[1]) : 64;
    if (mib <= 0) {
        fprintf(stderr, "usage: bench_sum_concat [MiB]\n");
        return 2;
    }
    const size_t n = (size_t)mib << 18; /* floats */
    tsr_engine_t engine;
    tsr_stream_t stream;
    tsr_engine_create(&engine, tsr_cpu, 0);
    tsr_stream_create(&stream, engine);

    copy_ctx_t copy = {malloc(n * sizeof(float)), malloc(n * sizeof(float)), n};
    if (!copy.a || !copy.b)
        return 2;
    memset(copy.a, 1, n * sizeof(float));
    memset(copy.b, 2, n * sizeof(float));
    const double copy_t = best_time(stream_copy, &copy);
    const double copy_gbs = 2.0 * (double)(n * sizeof(float)) / copy_t * 1e-9;
    printf("%-24s %-20s %8.3f ms %7.2f GB/s (%d threads)\n", "stream copy",
           "C loop", copy_t * 1e3, copy_gbs, tsr_get_max_threads());
    free(copy.a);
    free(copy.b);

    /* N x C x H x W with H * W = 4096 and C * 4096 * 4 bytes = mib MiB. */
    const tsr_dim_t dims[4] = {1, (tsr_dim_t)(n / 4096), 64, 64};
    const tsr_dim_t half[4] = {1, dims[1] / 2, 64, 64};
    const int two_srcs[2] = {TSR_ARG_MULTIPLE_SRC, TSR_ARG_MULTIPLE_SRC + 1};
    static const char *const tags[] = {"abcd", "acdb"};
    for (int t = 0; t < 2; t++) {
        char name[64];
        tsr_memory_desc_t srcs[2], dst;
        tsr_primitive_desc_t pd;

        tsr_memory_desc_init_by_tag(&srcs[0], 4, dims, tsr_f32, tags[t]);
        srcs[1] = srcs[0];
        const float scales[2] = {1.f, 0.5f};
        if (tsr_sum_primitive_desc_create(&pd, NULL, 2, scales, srcs, NULL,
                                          engine) == tsr_success) {
            snprintf(name, sizeof(name), "sum 2 x %ld MiB %s", mib, tags[t]);
            bench_pd(name, pd, 2, two_srcs, engine, stream, copy_gbs);
            tsr_primitive_desc_destroy(pd);
        }

        tsr_memory_desc_init_by_tag(&srcs[0], 4, half, tsr_f32, tags[t]);
        srcs[1] = srcs[0];
        tsr_memory_desc_init_by_tag(&dst, 4, dims, tsr_f32, tags[t]);
        if (tsr_concat_primitive_desc_create(&pd, &dst, 2, 1, srcs, NULL,
                                             engine) == tsr_success) {
            snprintf(name, sizeof(name), "concat 2 -> %ld MiB %s", mib,
                     tags[t]);
            bench_pd(name, pd, 2, two_srcs, engine, stream, copy_gbs);
            tsr_primitive_desc_destroy(pd);
        }

        tsr_shuffle_desc_t shuffle;
        const int src_arg[1] = {TSR_ARG_SRC};
        if (tsr_shuffle_forward_desc_init(&shuffle, tsr_forward_inference, &dst,
                                          NULL, 1, 4) == tsr_success &&
            tsr_primitive_desc_create(&pd, &shuffle, NULL, engine) ==
                    tsr_success) {
            snprintf(name, sizeof(name), "shuffle %ld MiB %s g4", mib, tags[t]);
            bench_pd(name, pd, 1, src_arg, engine, stream, copy_gbs);
            tsr_primitive_desc_destroy(pd);
        }
    }
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return 0;
}
