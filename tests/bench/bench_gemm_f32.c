/* Timing tool for the f32 GEMM engine (not a test): runs each shape for
 * about a second and prints the best time and GFLOPS.
 *
 *   bench_gemm_f32 [--ta] [--tb] MxNxK...   (default: 1024x1024x1024 and
 *                                            the BERT-base shapes)
 *
 * Threads follow OMP_NUM_THREADS; the ISA follows TSR_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 199309L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/gemm/gemm_f32.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static float *alloc_filled(int64_t n) {
    float *x = malloc(sizeof(float) * (size_t)n);
    if (!x) {
        fprintf(stderr, "bench_gemm_f32: out of memory\n");
        exit(2);
    }
    for (int64_t i = 0; i < n; ++i)
        x[i] = (float)(i % 13) * 0.125f - 0.75f;
    return x;
}

static int bench_shape(int64_t M, int64_t N, int64_t K, int ta, int tb) {
    float *A = alloc_filled(M * K), *B = alloc_filled(K * N);
    float *C = alloc_filled(M * N);
    const int nthr = omp_get_max_threads();
    const size_t scratch_size = tsr_gemm_f32_scratch_size(M, N, K, nthr);
    void *scratch = malloc(scratch_size + 1);
    tsr_gemm_f32_args_t args = {0};
    args.transa = ta;
    args.transb = tb;
    args.M = M;
    args.N = N;
    args.K = K;
    args.alpha = 1.f;
    args.A = A;
    args.lda = ta ? M : K;
    args.B = B;
    args.ldb = tb ? K : N;
    args.beta = 0.f;
    args.C = C;
    args.ldc = N;
    args.scratch = scratch;
    args.scratch_size = scratch_size;

    double best = 1e30;
    const double stop = now_s() + 1.0;
    for (int rep = 0; rep < 3 || now_s() < stop; ++rep) {
        const double t0 = now_s();
        if (tsr_gemm_f32(&args) != tsr_success) {
            fprintf(stderr, "bench_gemm_f32: GEMM failed\n");
            return 1;
        }
        const double t = now_s() - t0;
        best = t < best ? t : best;
    }
    printf("%s threads=%d ta=%d tb=%d %ldx%ldx%ld: %.3f ms %.1f GFLOPS\n",
           tsr_gemm_f32_kernel_name(), nthr, ta, tb, (long)M, (long)N, (long)K,
           best * 1e3, 2e-9 * (double)M * (double)N * (double)K / best);
    free(A);
    free(B);
    free(C);
    free(scratch);
    return 0;
}

int main(int argc, char **argv) {
    int ta = 0, tb = 0, nshapes = 0, status = 0;
    for (int i = 1; i < argc; ++i) {
        long m, n, k;
        char tail;
        if (strcmp(argv[i], "--ta") == 0) {
            ta = 1;
        } else if (strcmp(argv[i], "--tb") == 0) {
            tb = 1;
        } else if (sscanf(argv[i], "%ldx%ldx%ld%c", &m, &n, &k, &tail) == 3 &&
                   m > 0 && n > 0 && k > 0) {
            ++nshapes;
        } else {
            fprintf(stderr, "usage: %s [--ta] [--tb] MxNxK...\n", argv[0]);
            return 2;
        }
    }
    static const long defaults[][3] = {{1024, 1024, 1024},
                                       {384, 768, 768},
                                       {384, 3072, 768},
                                       {384, 768, 3072}};
    if (nshapes == 0) {
        for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); ++i)
            status |= bench_shape(defaults[i][0], defaults[i][1],
                                  defaults[i][2], ta, tb);
        return status;
    }
    for (int i = 1; i < argc; ++i) {
        long m, n, k;
        if (sscanf(argv[i], "%ldx%ldx%ld", &m, &n, &k) == 3)
            status |= bench_shape(m, n, k, ta, tb);
    }
    return status;
}
