/* Timing tool for eltwise (not a test): runs each algorithm forward on an
 * f32 tensor for about a second and prints the best time and the bandwidth
 * (bytes of src read plus dst written), next to a STREAM-like copy of the
 * same size in the same process.
 *
 *   bench_eltwise [--mib=64] [--inplace] [--bwd] [ALG...]
 *                                 (default algorithms: relu gelu_erf)
 *
 * Threads follow OMP_NUM_THREADS; the ISA follows TSR_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 199309L
#include <omp.h>
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

static tsr_alg_kind_t alg_of(const char *name) {
    for (int a = tsr_eltwise_relu; a < tsr_eltwise_alg_last; a++)
        if (strcmp(tsr_alg_kind2str((tsr_alg_kind_t)a), name) == 0)
            return (tsr_alg_kind_t)a;
    return tsr_alg_kind_undef;
}

/* Best time of `run` over about a second. */
static double best_time(void (*run)(void *), void *arg) {
    double best = 1e30;
    const double stop = now_s() + 1.0;
    for (int rep = 0; rep < 5 || now_s() < stop; rep++) {
        const double t0 = now_s();
        run(arg);
        const double t = now_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

typedef struct {
    float *src, *dst;
    int64_t n;
} copy_arg_t;

static void copy_run(void *p) {
    copy_arg_t *c = p;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < c->n; i++)
        c->dst[i] = c->src[i];
}

typedef struct {
    tsr_primitive_t prim;
    tsr_stream_t stream;
    int nargs;
    tsr_exec_arg_t args[3];
} prim_arg_t;

static void prim_run(void *p) {
    prim_arg_t *a = p;
    tsr_primitive_execute(a->prim, a->stream, a->nargs, a->args);
}

int main(int argc, char **argv) {
    int64_t mib = 64;
    int inplace = 0, bwd = 0;
    const char *algs[64];
    int nalgs = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--mib=", 6) == 0)
            mib = atoll(argv[i] + 6);
        else if (strcmp(argv[i], "--inplace") == 0)
            inplace = 1;
        else if (strcmp(argv[i], "--bwd") == 0)
            bwd = 1;
        else if (nalgs < 64)
            algs[nalgs++] = argv[i];
    }
    if (nalgs == 0) {
        algs[nalgs++] = "relu";
        algs[nalgs++] = "gelu_erf";
    }
    const int64_t n = mib * 1024 * 1024 / (int64_t)sizeof(float);
    const tsr_dim_t dims[1] = {n};

    tsr_engine_t engine;
    tsr_stream_t stream;
    tsr_engine_create(&engine, tsr_cpu, 0);
    tsr_stream_create(&stream, engine);
    tsr_memory_desc_t md;
    tsr_memory_desc_init_by_tag(&md, 1, dims, tsr_f32, "a");
    tsr_memory_t src, dst, diff;
    tsr_memory_create(&src, &md, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&dst, &md, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&diff, &md, engine, TSR_MEMORY_ALLOCATE);
    float *x, *y, *g;
    tsr_memory_get_data_handle(src, (void **)&x);
    tsr_memory_get_data_handle(dst, (void **)&y);
    tsr_memory_get_data_handle(diff, (void **)&g);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)(i % 13) * 0.25f - 1.5f;
        y[i] = 0.f;
        g[i] = (float)(i % 7) * 0.5f - 1.5f;
    }

    copy_arg_t c = {x, y, n};
    const double t_copy = best_time(copy_run, &c);
    const double copy_gbs = 2.0 * (double)n * sizeof(float) / t_copy * 1e-9;
    printf("threads %d, %lld MiB f32: copy %.3f ms %.1f GB/s\n",
           omp_get_max_threads(), (long long)mib, t_copy * 1e3, copy_gbs);

    for (int k = 0; k < nalgs; k++) {
        const tsr_alg_kind_t alg = alg_of(algs[k]);
        if (alg == tsr_alg_kind_undef) {
            fprintf(stderr, "bench_eltwise: unknown algorithm %s\n", algs[k]);
            return 2;
        }
        tsr_eltwise_desc_t desc;
        if (bwd)
            tsr_eltwise_backward_desc_init(&desc, alg, &md, &md, &md, 0.f, 0.f);
        else
            tsr_eltwise_forward_desc_init(&desc, tsr_forward_inference, alg,
                                          &md, &md, 0.f, 0.f);
        tsr_primitive_desc_t pd;
        if (tsr_primitive_desc_create(&pd, &desc, NULL, engine) !=
            tsr_success) {
            fprintf(stderr, "bench_eltwise: %s not created\n", algs[k]);
            return 2;
        }
        prim_arg_t a = {NULL, stream, 2, {{0}}};
        tsr_primitive_create(&a.prim, pd);
        if (bwd) {
            const int data_arg =
                    strstr(algs[k], "_dst") ? TSR_ARG_DST : TSR_ARG_SRC;
            a.nargs = 3;
            a.args[0] = (tsr_exec_arg_t){data_arg, src};
            a.args[1] = (tsr_exec_arg_t){TSR_ARG_DIFF_DST, diff};
            a.args[2] =
                    (tsr_exec_arg_t){TSR_ARG_DIFF_SRC, inplace ? diff : dst};
        } else {
            a.args[0] = (tsr_exec_arg_t){TSR_ARG_SRC, src};
            a.args[1] = (tsr_exec_arg_t){TSR_ARG_DST, inplace ? src : dst};
        }
        const double t = best_time(prim_run, &a);
        const double gbs =
                (double)(a.nargs) * (double)n * sizeof(float) / t * 1e-9;
        printf("%-12s %-18s %8.3f ms %6.1f GB/s (%.0f%% of copy)\n", algs[k],
               tsr_primitive_desc_impl_name(pd), t * 1e3, gbs,
               100.0 * gbs / copy_gbs);
        tsr_primitive_destroy(a.prim);
        tsr_primitive_desc_destroy(pd);
        /* The inplace run leaves src transformed: refill it. */
        if (inplace)
            for (int64_t i = 0; i < n; i++)
                x[i] = (float)(i % 13) * 0.25f - 1.5f;
    }
    tsr_memory_destroy(src);
    tsr_memory_destroy(dst);
    tsr_memory_destroy(diff);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return 0;
}
