/* Timing tool for binary add (not a test): f32 tensors of MIB MiB each
 * (default 64), the best of 20 runs, against a STREAM-style copy of the
 * same size on the same threads.
 *
 *   bench_binary [MIB]
 *
 * Bandwidth counts the bytes the operation must move: copy one read and
 * one write, add two reads and one write (a per-channel src1 one read and
 * one write). Threads follow OMP_NUM_THREADS; the ISA follows
 * TSR_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 199309L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera.h"

#define RUNS 20

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static float *data_of(tsr_memory_t m) {
    void *p = NULL;
    tsr_memory_get_data_handle(m, &p);
    return p;
}

static void fill(float *x, int64_t n) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)(i % 13) * 0.125f - 0.75f;
}

/* The best of RUNS copies, in seconds. */
static double time_copy(float *dst, const float *src, int64_t n) {
    double best = 1e30;
    for (int r = 0; r < RUNS; r++) {
        const double t0 = now_s();
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++)
            dst[i] = src[i];
        const double t = now_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static double time_binary(tsr_engine_t engine, tsr_stream_t stream,
                          const tsr_memory_desc_t *md0,
                          const tsr_memory_desc_t *md1, tsr_memory_t m0,
                          tsr_memory_t m1, tsr_memory_t md, const char **impl) {
    tsr_binary_desc_t desc;
    tsr_primitive_desc_t pd = NULL;
    tsr_primitive_t prim = NULL;
    if (tsr_binary_desc_init(&desc, tsr_binary_add, md0, md1, md0) !=
                tsr_success ||
        tsr_primitive_desc_create(&pd, &desc, NULL, engine) != tsr_success ||
        tsr_primitive_create(&prim, pd) != tsr_success) {
        fprintf(stderr, "bench_binary: cannot create the primitive\n");
        exit(2);
    }
    *impl = tsr_primitive_desc_impl_name(pd);
    tsr_exec_arg_t args[3] = {
            {TSR_ARG_SRC_0, m0}, {TSR_ARG_SRC_1, m1}, {TSR_ARG_DST, md}};
    double best = 1e30;
    for (int r = 0; r < RUNS; r++) {
        const double t0 = now_s();
        tsr_primitive_execute(prim, stream, 3, args);
        const double t = now_s() - t0;
        best = t < best ? t : best;
    }
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
    return best;
}

int main(int argc, char **argv) {
    const int64_t mib = argc > 1 ? atoll(argv[1]) : 64;
    const int64_t n = mib * (1 << 20) / 4;
    const int64_t C = 256, HW = n / (4 * C);
    tsr_engine_t engine;
    tsr_stream_t stream;
    tsr_engine_create(&engine, tsr_cpu, 0);
    tsr_stream_create(&stream, engine);
    tsr_memory_desc_t md, md_c;
    const tsr_dim_t dims[4] = {4, C, HW, 1}, dims_c[4] = {1, C, 1, 1};
    tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&md_c, 4, dims_c, tsr_f32, "abcd");
    const int64_t elems = 4 * C * HW;
    tsr_memory_t a, b, d, c;
    tsr_memory_create(&a, &md, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&b, &md, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&d, &md, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&c, &md_c, engine, TSR_MEMORY_ALLOCATE);
    fill(data_of(a), elems);
    fill(data_of(b), elems);
    fill(data_of(d), elems);
    fill(data_of(c), C);
    const double bytes = (double)elems * 4;
    printf("%d threads, %lld MiB tensors, ISA cap %s\n", omp_get_max_threads(),
           (long long)mib, tsr_cpu_isa2str(tsr_get_effective_cpu_isa()));

    const double t_copy = time_copy(data_of(d), data_of(a), elems);
    const double copy_gbs = 2 * bytes / t_copy * 1e-9;
    printf("%-28s %8.3f ms %7.2f GB/s\n", "copy (STREAM-style)", t_copy * 1e3,
           copy_gbs);
    const char *impl = NULL;
    const struct {
        const char *what;
        const tsr_memory_desc_t *md1;
        tsr_memory_t src1, dst;
        double traffic;
    } cases[] = {
            {"add", &md, b, d, 3 * bytes},
            {"add in place", &md, b, a, 3 * bytes},
            {"add per-channel src1", &md_c, c, d, 2 * bytes},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const double t = time_binary(engine, stream, &md, cases[i].md1, a,
                                     cases[i].src1, cases[i].dst, &impl);
        const double gbs = cases[i].traffic / t * 1e-9;
        printf("%-28s %8.3f ms %7.2f GB/s  %5.1f%% of copy  (%s)\n",
               cases[i].what, t * 1e3, gbs, 100 * gbs / copy_gbs, impl);
    }
    tsr_memory_destroy(a);
    tsr_memory_destroy(b);
    tsr_memory_destroy(d);
    tsr_memory_destroy(c);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return 0;
}
