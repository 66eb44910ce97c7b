/* The f32 GEMM engine against a double-accumulation reference: every M/N/K
 * tail around the kernel tile, both transpositions, padded leading
 * dimensions, alpha/beta (beta = 0 over NaN), cache-block boundaries, the
 * fused bias and epilogue, user scratch, thread teams (bitwise identical
 * results for any thread count), narrow blocks (A read in place) against
 * wide ones, and argument checks. Whichever kernel the
 * CPU (capped by TSR_MAX_CPU_ISA) selects is the one tested. */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/isa.h"
#include "cpu/gemm/gemm_f32.h"
#include "cpu/gemm/gemm_f32_impl.h"
#include "gemm_taps_util.h"

static int n_checks, n_failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        ++n_checks;                                                            \
        if (!(cond)) {                                                         \
            if (++n_failures <= 20) {                                          \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                    \
                printf(__VA_ARGS__);                                           \
                printf("\n");                                                  \
            }                                                                  \
        }                                                                      \
    } while (0)

/* Value stored in the padding of C (columns ldc > N): must survive. */
#define C_PAD_SENTINEL 12345.f

typedef struct {
    int transa, transb;
    int64_t M, N, K;
    float alpha, beta;
    int64_t lda_pad, ldb_pad, ldc_pad; /* extra elements per line */
    tsr_gemm_bias_kind_t bias_kind;
} problem_t;

/* A problem's buffers; A and B hold op(A) and op(B) in their stored
 * orientation. */
typedef struct {
    problem_t p;
    int64_t lda, ldb, ldc;
    float *A, *B, *C, *bias;
} buffers_t;

static uint32_t rng_state = 12345u;
static uint32_t rng(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}
/* Integers in [-4, 4]: every product and partial sum below is exact. */
static float rnd_int(void) {
    return (float)((int)(rng() % 9) - 4);
}
static float rnd_real(void) {
    return (float)(rng() % 20001) / 10000.f - 1.f;
}

static void fill(float *x, int64_t n, int integers) {
    for (int64_t i = 0; i < n; ++i)
        x[i] = integers ? rnd_int() : rnd_real();
}

static buffers_t make_buffers(const problem_t *p, int integers) {
    buffers_t b = {*p, 0, 0, 0, NULL, NULL, NULL, NULL};
    const int64_t a_rows = p->transa ? p->K : p->M;
    const int64_t b_rows = p->transb ? p->N : p->K;
    b.lda = (p->transa ? p->M : p->K) + p->lda_pad;
    b.ldb = (p->transb ? p->K : p->N) + p->ldb_pad;
    b.ldc = p->N + p->ldc_pad;
    b.A = malloc(sizeof(float) * (size_t)(a_rows * b.lda + 1));
    b.B = malloc(sizeof(float) * (size_t)(b_rows * b.ldb + 1));
    b.C = malloc(sizeof(float) * (size_t)(p->M * b.ldc + 1));
    b.bias = malloc(sizeof(float) * (size_t)(p->M + p->N + 1));
    fill(b.A, a_rows * b.lda, integers);
    fill(b.B, b_rows * b.ldb, integers);
    fill(b.bias, p->M + p->N, 1);
    for (int64_t i = 0; i < p->M; ++i)
        for (int64_t j = 0; j < b.ldc; ++j)
            b.C[i * b.ldc + j] = j >= p->N        ? C_PAD_SENTINEL
                                 : p->beta == 0.f ? NAN
                                 : integers       ? rnd_int()
                                                  : rnd_real();
    return b;
}

static void free_buffers(buffers_t *b) {
    free(b->A);
    free(b->B);
    free(b->C);
    free(b->bias);
}

static float *copy_c(const buffers_t *b) {
    const size_t n = (size_t)(b->p.M * b->ldc + 1);
    float *c = malloc(sizeof(float) * n);
    memcpy(c, b->C, sizeof(float) * n);
    return c;
}

static tsr_gemm_f32_args_t make_args(const buffers_t *b) {
    const problem_t *p = &b->p;
    tsr_gemm_f32_args_t a = {0};
    a.transa = p->transa;
    a.transb = p->transb;
    a.M = p->M;
    a.N = p->N;
    a.K = p->K;
    a.alpha = p->alpha;
    a.A = b->A;
    a.lda = b->lda;
    a.B = b->B;
    a.ldb = b->ldb;
    a.beta = p->beta;
    a.C = b->C;
    a.ldc = b->ldc;
    a.bias_kind = p->bias_kind;
    a.bias = p->bias_kind == tsr_gemm_bias_per_col ? b->bias + p->M : b->bias;
    return a;
}

/* ref[i][j] (dense M x N) and sum_k |a||b| for the error bound. */
static void reference(const buffers_t *b, const float *c_in, double *ref,
                      double *abs_sum) {
    const problem_t *p = &b->p;
    for (int64_t i = 0; i < p->M; ++i)
        for (int64_t j = 0; j < p->N; ++j) {
            double s = 0, sa = 0;
            for (int64_t k = 0; k < p->K; ++k) {
                const double av =
                        p->transa ? b->A[k * b->lda + i] : b->A[i * b->lda + k];
                const double bv =
                        p->transb ? b->B[j * b->ldb + k] : b->B[k * b->ldb + j];
                s += av * bv;
                sa += fabs(av * bv);
            }
            double r = (double)p->alpha * s;
            double r_abs = fabs(p->alpha) * sa;
            if (p->beta != 0.f) { /* beta == 0: C may be NaN, unread */
                r += (double)p->beta * c_in[i * b->ldc + j];
                r_abs += fabs(p->beta * c_in[i * b->ldc + j]);
            }
            if (p->bias_kind == tsr_gemm_bias_per_row)
                r += b->bias[i];
            else if (p->bias_kind == tsr_gemm_bias_per_col)
                r += b->bias[p->M + j];
            ref[i * p->N + j] = r;
            abs_sum[i * p->N + j] = r_abs;
        }
}

static void describe(const problem_t *p, char *s, size_t n) {
    snprintf(s, n, "ta=%d tb=%d M=%ld N=%ld K=%ld alpha=%g beta=%g bias=%d",
             p->transa, p->transb, (long)p->M, (long)p->N, (long)p->K, p->alpha,
             p->beta, (int)p->bias_kind);
}

/* Compares C with the reference: exactly (integer data) or within the
 * worst-case f32 summation bound; checks the padding of C is untouched. */
static void check_result(const buffers_t *b, const float *c_in, int exact) {
    const problem_t *p = &b->p;
    double *ref = malloc(sizeof(double) * (size_t)(p->M * p->N + 1));
    double *abs_sum = malloc(sizeof(double) * (size_t)(p->M * p->N + 1));
    reference(b, c_in, ref, abs_sum);
    int64_t bad = 0, first_i = -1, first_j = -1;
    for (int64_t i = 0; i < p->M; ++i)
        for (int64_t j = 0; j < b->ldc; ++j) {
            const float got = b->C[i * b->ldc + j];
            int ok;
            if (j >= p->N) {
                ok = got == C_PAD_SENTINEL;
            } else {
                const double want = ref[i * p->N + j];
                const double tol = exact ? 0.
                                         : (double)(p->K + 3) * FLT_EPSILON *
                                                   (abs_sum[i * p->N + j] + 1.);
                ok = fabs((double)got - want) <= tol;
            }
            if (!ok && bad++ == 0) {
                first_i = i;
                first_j = j;
            }
        }
    char d[160];
    describe(p, d, sizeof(d));
    CHECK(bad == 0, "%s: %ld wrong elements, first at (%ld, %ld)", d, (long)bad,
          (long)first_i, (long)first_j);
    free(ref);
    free(abs_sum);
}

/* Runs one problem through tsr_gemm_f32 and checks it. */
/* op(B) in the prepacked layout of the current kernel, from the
 * documented formula (padding columns zero). */
static float *prepack_b(const buffers_t *b) {
    const problem_t *p = &b->p;
    const int64_t nr = tsr_gemm_f32_prepacked_nr();
    const int64_t panels = (p->N + nr - 1) / nr;
    float *packed = calloc((size_t)(panels * nr * p->K + 1), sizeof(float));
    for (int64_t k = 0; k < p->K; ++k)
        for (int64_t n = 0; n < p->N; ++n)
            packed[n / nr * p->K * nr + k * nr + n % nr] =
                    p->transb ? b->B[n * b->ldb + k] : b->B[k * b->ldb + n];
    return packed;
}

/* The same problem on prepacked B: the same arithmetic, so bitwise the
 * C of the plain call (`want`, padding included). */
static void run_prepacked(buffers_t *b, const float *c_in, const float *want,
                          const char *d) {
    const size_t n = (size_t)(b->p.M * b->ldc + 1);
    memcpy(b->C, c_in, sizeof(float) * n);
    float *packed = prepack_b(b);
    tsr_gemm_f32_args_t args = make_args(b);
    args.B = packed;
    args.transb = !args.transb; /* ignored */
    args.ldb = 0;               /* ignored */
    args.b_prepacked = 1;
    const tsr_status_t st = tsr_gemm_f32(&args);
    CHECK(st == tsr_success, "%s prepacked: status %d", d, (int)st);
    CHECK(memcmp(b->C, want, sizeof(float) * n) == 0,
          "%s prepacked: C differs from the plain call", d);
    free(packed);
}

static void run_and_check(const problem_t *p, int integers) {
    buffers_t b = make_buffers(p, integers);
    float *c_in = copy_c(&b);
    const tsr_gemm_f32_args_t args = make_args(&b);
    const tsr_status_t st = tsr_gemm_f32(&args);
    char d[160];
    describe(p, d, sizeof(d));
    CHECK(st == tsr_success, "%s: status %d", d, (int)st);
    check_result(&b, c_in, integers);
    float *want = copy_c(&b);
    run_prepacked(&b, c_in, want, d);
    free(want);
    free(c_in);
    free_buffers(&b);
}

static const tsr_gemm_f32_kernel_t *kernel;
static int default_nthr;

static void test_kernel_selection(void) {
    const char *want = tsr_mayiuse(tsr_cpu_isa_avx512_core) ? "avx512_core"
                       : tsr_mayiuse(tsr_cpu_isa_avx2)      ? "avx2"
                                                            : "generic";
    CHECK(strncmp(tsr_gemm_f32_kernel_name(), want, strlen(want)) == 0,
          "kernel %s, expected %s", tsr_gemm_f32_kernel_name(), want);
    printf("kernel: %s (mr=%d nr=%d mc=%ld kc=%ld nc=%ld)\n", kernel->name,
           kernel->mr, kernel->nr, (long)kernel->mc, (long)kernel->kc,
           (long)kernel->nc);
    if (!tsr_mayiuse(tsr_cpu_isa_avx512_core))
        printf("note: AVX-512 not usable here (CPU or TSR_MAX_CPU_ISA): the "
               "avx512_core kernel is compiled but not tested\n");
}

/* Every M and N from 1 to two tiles plus one, K around the unrolling and
 * packing chunk sizes, both transpositions, padded leading dimensions. */
static void test_tails(void) {
    static const int64_t ks[] = {1, 3, 8, 17};
    static const float alpha_beta[][2] = {{1.f, 0.f}, {2.f, -1.f}, {.5f, 1.f}};
    int which = 0;
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
            for (int64_t M = 1; M <= 2 * kernel->mr + 1; ++M)
                for (int64_t N = 1; N <= 2 * kernel->nr + 1; ++N)
                    for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]);
                         ++ki, ++which) {
                        const problem_t p = {ta,
                                             tb,
                                             M,
                                             N,
                                             ks[ki],
                                             alpha_beta[which % 3][0],
                                             alpha_beta[which % 3][1],
                                             which % 3,
                                             (which + 1) % 4,
                                             1 + which % 5,
                                             tsr_gemm_bias_none};
                        run_and_check(&p, 1);
                    }
}

/* Shapes just past the cache blocks mc, kc (several K blocks: beta is
 * applied once) and nc, exact on integer data, each also on prepacked B. */
static void test_block_boundaries(void) {
    const int64_t mr = kernel->mr, nr = kernel->nr;
    const int64_t wide_n = (2 * kernel->narrow_ntiles + 2) * nr + 7;
    const problem_t ps[] = {
            {0, 0, kernel->mc + mr + 1, 2 * nr + 3, 2 * kernel->kc + 3, 1.f,
             0.f, 0, 0, 0, tsr_gemm_bias_none},
            {1, 1, kernel->mc + 1, nr + 1, kernel->kc + 1, 1.f, 1.f, 2, 3, 1,
             tsr_gemm_bias_none},
            {0, 1, 2 * mr + 1, kernel->nc + nr + 5, 9, -1.f, .5f, 0, 0, 2,
             tsr_gemm_bias_none},
            {1, 0, mr + 1, kernel->nc + 1, kernel->kc + 5, 2.f, 0.f, 1, 1, 0,
             tsr_gemm_bias_none},
            /* Wide blocks (over the narrow width on each of 2 threads)
             * over several K blocks with row tails: prepacked B is read
             * by the taller taps tiles on AVX-512 (run_tall_tile). */
            {0, 0, kernel->mc + 2 * mr + 5, wide_n, 2 * kernel->kc + 3, 1.f,
             .5f, 1, 2, 3, tsr_gemm_bias_per_col},
            {0, 1, 4 * mr + 5, wide_n, kernel->kc + 9, 2.f, 0.f, 0, 0, 1,
             tsr_gemm_bias_per_row},
            /* Rows past those that read B in place (8 tiles) in one A
             * block, B packed: narrow column blocks, each fetching the
             * next K or column block's B while it runs. */
            {0, 0, 9 * mr + 1, wide_n, 2 * kernel->kc + 3, 1.f, .5f, 0, 3, 1,
             tsr_gemm_bias_per_row},
            /* A single row over several K blocks: the row kernel on B in
             * place, or on prepacked panels with A in place (wide blocks)
             * or packed (transposed A). */
            {0, 0, 1, wide_n, 2 * kernel->kc + 3, 1.f, .5f, 0, 1, 2,
             tsr_gemm_bias_per_col},
            {1, 0, 1, wide_n, kernel->kc + 5, -1.f, 0.f, 2, 0, 0,
             tsr_gemm_bias_per_row},
    };
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); ++i)
        run_and_check(&ps[i], 1);
}

/* Non-integer data: compared within the f32 rounding bound. */
static void test_real_values(void) {
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) {
            const problem_t p = {ta,   tb, 67, 131, 2 * kernel->kc - 5, .7f,
                                 -.3f, 1,  2,  3,   tsr_gemm_bias_none};
            run_and_check(&p, 0);
        }
}

/* K == 0 and alpha == 0: C = beta * C (+ bias); A and B not read (NULL
 * for K == 0, NaN for alpha == 0). */
static void test_degenerate(void) {
    for (int alpha_zero = 0; alpha_zero < 2; ++alpha_zero)
        for (int beta_zero = 0; beta_zero < 2; ++beta_zero) {
            const problem_t p = {0,
                                 0,
                                 9,
                                 21,
                                 alpha_zero ? 13 : 0,
                                 alpha_zero ? 0.f : 1.f,
                                 beta_zero ? 0.f : -2.f,
                                 0,
                                 0,
                                 4,
                                 tsr_gemm_bias_per_col};
            buffers_t b = make_buffers(&p, 1);
            float *c_in = copy_c(&b);
            tsr_gemm_f32_args_t args = make_args(&b);
            if (alpha_zero) {
                for (int64_t i = 0; i < p.M * b.lda; ++i)
                    b.A[i] = NAN;
            } else {
                args.A = NULL;
                args.B = NULL;
            }
            CHECK(tsr_gemm_f32(&args) == tsr_success, "degenerate status");
            if (alpha_zero) /* the reference must see finite inputs */
                fill(b.A, p.M * b.lda, 1);
            check_result(&b, c_in, 1);
            free(c_in);
            free_buffers(&b);
        }
    /* Empty C: nothing to do, no buffer needed. */
    tsr_gemm_f32_args_t e = {0};
    e.M = 0;
    e.N = 5;
    e.K = 3;
    e.alpha = 1.f;
    CHECK(tsr_gemm_f32(&e) == tsr_success, "M == 0 must succeed");
    CHECK(tsr_gemm_f32_scratch_size(0, 5, 3, 2) == 0, "no scratch for M=0");
}

/* Epilogue context: counts visits per element and applies y = 2x - 1. */
typedef struct {
    int *visits;
    float *C;
    int64_t ldc, N;
    int bad_pointer;
} epilogue_ctx_t;

static void count_and_scale(const void *ctx_, float *c, int64_t ldc, int64_t m0,
                            int64_t n0, int64_t m, int64_t n) {
    epilogue_ctx_t *ctx = (epilogue_ctx_t *)ctx_;
    if (c != ctx->C + m0 * ctx->ldc + n0 || ldc != ctx->ldc)
        ctx->bad_pointer = 1;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            ctx->visits[(m0 + i) * ctx->N + n0 + j]++;
            c[i * ldc + j] = 2.f * c[i * ldc + j] - 1.f;
        }
}

/* Bias per row and per column, then the callback, on 1 and 2 threads and
 * over several K blocks: every element visited once, after the bias. */
static void test_epilogue(void) {
    const tsr_gemm_bias_kind_t kinds[] = {
            tsr_gemm_bias_none, tsr_gemm_bias_per_row, tsr_gemm_bias_per_col};
    for (int nthr = 1; nthr <= 2; ++nthr)
        for (size_t ki = 0; ki < 3; ++ki) {
            const problem_t p = {nthr - 1,
                                 0,
                                 2 * kernel->mr + 5,
                                 3 * kernel->nr + 7,
                                 kernel->kc + 9,
                                 1.f,
                                 -1.f,
                                 1,
                                 0,
                                 3,
                                 kinds[ki]};
            buffers_t b = make_buffers(&p, 1);
            float *c_in = copy_c(&b);
            tsr_gemm_f32_args_t args = make_args(&b);
            int *visits = calloc((size_t)(p.M * p.N), sizeof(int));
            epilogue_ctx_t ctx = {visits, b.C, b.ldc, p.N, 0};
            args.epilogue = count_and_scale;
            args.epilogue_ctx = &ctx;
            omp_set_num_threads(nthr);
            CHECK(tsr_gemm_f32(&args) == tsr_success, "epilogue status");
            CHECK(!ctx.bad_pointer, "epilogue got a wrong tile pointer");
            int64_t wrong_visits = 0;
            for (int64_t i = 0; i < p.M * p.N; ++i)
                wrong_visits += visits[i] != 1;
            CHECK(wrong_visits == 0, "%ld elements not visited exactly once",
                  (long)wrong_visits);
            /* Undo y = 2x - 1 (exact on integers), then the usual check. */
            for (int64_t i = 0; i < p.M; ++i)
                for (int64_t j = 0; j < p.N; ++j)
                    b.C[i * b.ldc + j] = (b.C[i * b.ldc + j] + 1.f) / 2.f;
            check_result(&b, c_in, 1);
            free(visits);
            free(c_in);
            free_buffers(&b);
        }
    omp_set_num_threads(default_nthr);
}

/* Runs `args` with `team` threads in the caller's own parallel region
 * (team_nthr/team_ithr), with a shared scratch or per-thread allocation. */
static tsr_status_t run_in_team(tsr_gemm_f32_args_t args, int team,
                                int with_scratch) {
    size_t size = tsr_gemm_f32_scratch_size(args.M, args.N, args.K, team);
    void *scratch = with_scratch ? malloc(size + 1) : NULL;
    tsr_status_t st = tsr_success;
    args.team_nthr = team;
    args.scratch = scratch;
    args.scratch_size = with_scratch ? size : 0;
#pragma omp parallel num_threads(team)
    {
        tsr_gemm_f32_args_t mine = args;
        mine.team_ithr = omp_get_thread_num();
        const tsr_status_t s = tsr_gemm_f32(&mine);
        if (s != tsr_success) {
#pragma omp critical
            st = s;
        }
    }
    free(scratch);
    return st;
}

/* The same GEMM on 1 and 2 OpenMP threads, in caller teams of 1, 2 and 3,
 * with and without user scratch: bitwise the same C every time. */
static void test_thread_invariance(void) {
    const problem_t shapes[] = {
            {0, 0, 197, 263, 2 * kernel->kc + 11, 1.f, 0.f, 0, 0, 0,
             tsr_gemm_bias_none},
            {1, 1, 31, 517, 129, .5f, 1.5f, 3, 1, 2, tsr_gemm_bias_per_row},
            {0, 1, 403, 19, 77, -1.f, 0.f, 0, 2, 1, tsr_gemm_bias_per_col},
            /* Narrow column blocks of packed B under one A block. */
            {0, 0, 9 * kernel->mr + 1, 1100, kernel->kc + 7, 1.f, 0.f, 1, 0, 0,
             tsr_gemm_bias_none},
    };
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s) {
        const problem_t *p = &shapes[s];
        buffers_t b = make_buffers(p, 0);
        float *c_in = copy_c(&b);
        const size_t bytes = sizeof(float) * (size_t)(p->M * b.ldc);
        float *first = NULL;
        char d[160];
        describe(p, d, sizeof(d));
        for (int variant = 0; variant < 7; ++variant) {
            memcpy(b.C, c_in, bytes);
            tsr_gemm_f32_args_t args = make_args(&b);
            tsr_status_t st;
            size_t size = 0;
            void *scratch = NULL;
            switch (variant) {
            case 0:
            case 1:
                omp_set_num_threads(variant + 1);
                st = tsr_gemm_f32(&args);
                break;
            case 2: /* user scratch sized for 2 threads, guard after it */
                omp_set_num_threads(2);
                size = tsr_gemm_f32_scratch_size(p->M, p->N, p->K, 2);
                scratch = malloc(size + 64);
                memset((char *)scratch + size, 0x5a, 64);
                args.scratch = scratch;
                args.scratch_size = size;
                st = tsr_gemm_f32(&args);
                for (int g = 0; g < 64; ++g)
                    CHECK(((unsigned char *)scratch)[size + g] == 0x5a,
                          "%s: scratch overrun", d);
                free(scratch);
                break;
            default: { /* caller teams, with or without user scratch */
                static const int team[] = {1, 2, 3, 2},
                                 with_scratch[] = {1, 0, 1, 1};
                st = run_in_team(args, team[variant - 3],
                                 with_scratch[variant - 3]);
                break;
            }
            }
            CHECK(st == tsr_success, "%s variant %d: status %d", d, variant,
                  (int)st);
            if (!first) {
                check_result(&b, c_in, 0);
                first = copy_c(&b);
            } else {
                CHECK(memcmp(first, b.C, bytes) == 0,
                      "%s: variant %d differs bitwise from 1 thread", d,
                      variant);
            }
        }
        omp_set_num_threads(default_nthr);
        free(first);
        free(c_in);
        free_buffers(&b);
    }
}

/* Bad arguments return tsr_invalid_arguments and leave C untouched. */
/* A one-row GEMM (its own row kernel on some CPUs) gives bit for bit row 0
 * of the same product with more rows: real values, several K blocks, beta,
 * each bias kind, N with a tail. */
static void test_single_row(void) {
    static const int64_t ns[] = {16, 80, 200, 1000};
    static const tsr_gemm_bias_kind_t biases[] = {
            tsr_gemm_bias_none, tsr_gemm_bias_per_row, tsr_gemm_bias_per_col};
    for (size_t in = 0; in < sizeof(ns) / sizeof(ns[0]); ++in) {
        for (size_t ib = 0; ib < 3; ++ib) {
            const problem_t tall = {0,   0, 7, ns[in], kernel->kc + 37, 1.5f,
                                    .5f, 0, 3, 2,      biases[ib]};
            buffers_t t = make_buffers(&tall, 0);
            problem_t one_p = tall;
            one_p.M = 1;
            buffers_t one = make_buffers(&one_p, 0);
            /* Same row 0 of A, same B, C row and bias. */
            memcpy(one.A, t.A, sizeof(float) * (size_t)tall.K);
            memcpy(one.B, t.B, sizeof(float) * (size_t)(tall.K * t.ldb));
            memcpy(one.C, t.C, sizeof(float) * (size_t)t.ldc);
            one.bias[0] = t.bias[0];
            if (tall.bias_kind == tsr_gemm_bias_per_col)
                memcpy(one.bias + 1, t.bias + tall.M,
                       sizeof(float) * (size_t)tall.N);
            tsr_gemm_f32_args_t at = make_args(&t), ao = make_args(&one);
            CHECK(tsr_gemm_f32(&at) == tsr_success &&
                          tsr_gemm_f32(&ao) == tsr_success,
                  "single row N=%ld: status", (long)tall.N);
            CHECK(memcmp(one.C, t.C, sizeof(float) * (size_t)tall.N) == 0,
                  "single row N=%ld bias %d: differs from row 0 of M=7",
                  (long)tall.N, (int)tall.bias_kind);
            free_buffers(&t);
            free_buffers(&one);
        }
    }
}

/* Columns of a wide GEMM computed as a narrow one (A read in place, tiles
 * row by row) come out bit for bit the same: real values, an A block
 * with a tail, two K blocks, the plain store and one with beta and bias. */
static void test_narrow_blocks(void) {
    const int64_t nr = kernel->nr;
    const int64_t wide_n = (kernel->narrow_ntiles + 2) * nr + 5;
    const int64_t j0 = nr + 3, narrow_n = 3 * nr + 5;
    for (int variant = 0; variant < 2; ++variant) {
        const problem_t wide = {0,
                                0,
                                kernel->mc + 2 * kernel->mr + 1,
                                wide_n,
                                kernel->kc + 37,
                                variant ? .5f : 1.f,
                                variant ? 1.5f : 0.f,
                                1,
                                2,
                                3,
                                variant ? tsr_gemm_bias_per_row
                                        : tsr_gemm_bias_per_col};
        buffers_t w = make_buffers(&wide, 0);
        float *c_in = copy_c(&w);
        tsr_gemm_f32_args_t aw = make_args(&w);
        tsr_gemm_f32_args_t an = aw;
        aw.team_nthr = an.team_nthr = 1; /* one rectangle: the whole C */
        CHECK(tsr_gemm_f32(&aw) == tsr_success, "narrow: wide status");
        float *c_wide = copy_c(&w);
        memcpy(w.C, c_in, sizeof(float) * (size_t)(wide.M * w.ldc + 1));
        an.N = narrow_n;
        an.B = w.B + j0;
        an.C = w.C + j0;
        an.a_streamed = variant; /* rows fetched ahead: the same results */
        if (wide.bias_kind == tsr_gemm_bias_per_col)
            an.bias = aw.bias + j0;
        CHECK(tsr_gemm_f32(&an) == tsr_success, "narrow: status");
        int same = 1;
        for (int64_t i = 0; i < wide.M; ++i)
            same &= memcmp(w.C + i * w.ldc + j0, c_wide + i * w.ldc + j0,
                           sizeof(float) * (size_t)narrow_n) == 0;
        CHECK(same, "narrow block (variant %d) differs from the wide GEMM",
              variant);
        free(c_in);
        free(c_wide);
        free_buffers(&w);
    }
}

static void test_invalid_arguments(void) {
    const problem_t p = {0, 0, 7, 9, 5, 1.f, 1.f, 0, 0, 0, tsr_gemm_bias_none};
    buffers_t b = make_buffers(&p, 1);
    float *c_in = copy_c(&b);
    const tsr_gemm_f32_args_t good = make_args(&b);
    CHECK(tsr_gemm_f32(NULL) == tsr_invalid_arguments, "NULL args");
    const size_t one_thread = tsr_gemm_f32_scratch_size(p.M, p.N, p.K, 1);
    void *scratch = malloc(one_thread);
    for (int which = 0; which < 12; ++which) {
        tsr_gemm_f32_args_t a = good;
        switch (which) {
        case 0:
            a.M = -1;
            break;
        case 1:
            a.K = -2;
            break;
        case 2:
            a.lda = p.K - 1;
            break;
        case 3:
            a.ldb = p.N - 1;
            break;
        case 4:
            a.ldc = p.N - 1;
            break;
        case 5:
            a.C = NULL;
            break;
        case 6:
            a.B = NULL;
            break;
        case 7:
            a.bias_kind = tsr_gemm_bias_per_row;
            a.bias = NULL;
            break;
        case 8:
            a.team_nthr = 2;
            a.team_ithr = 2;
            break;
        case 9: /* scratch too small for one thread */
            a.scratch = b.bias;
            a.scratch_size = 4;
            break;
        case 10:
            a.bias_kind = (tsr_gemm_bias_kind_t)7;
            break;
        case 11: /* scratch for one thread, team of eight: even thread 0
                  * (one thread's size is the largest of any kernel's) */
            a.team_nthr = 8;
            a.team_ithr = 0;
            a.scratch = scratch;
            a.scratch_size = one_thread;
            break;
        }
        CHECK(tsr_gemm_f32(&a) == tsr_invalid_arguments,
              "bad argument %d accepted", which);
        CHECK(memcmp(c_in, b.C, sizeof(float) * (size_t)(p.M * b.ldc)) == 0,
              "bad argument %d changed C", which);
    }
    free(scratch);
    free(c_in);
    free_buffers(&b);
}

/* The epilogue of rows placed by a row map: C row m at c_row_off[m]. */
typedef struct {
    int *visits;
    const float *C;
    const int64_t *row_off;
    int64_t N;
    int bad_pointer;
} row_map_ctx_t;

static void count_mapped_rows(const void *ctx_, float *c, int64_t ldc,
                              int64_t m0, int64_t n0, int64_t m, int64_t n) {
    row_map_ctx_t *ctx = (row_map_ctx_t *)ctx_;
    (void)ldc;
    if (m != 1 || c != ctx->C + ctx->row_off[m0] + n0)
        ctx->bad_pointer = 1;
    for (int64_t j = 0; j < n; ++j) {
        ctx->visits[m0 * ctx->N + n0 + j]++;
        c[j] = 2.f * c[j] - 1.f;
    }
}

/* The taps form against the reference, exact on integers: tails in M and
 * N, bias per row and column, beta, C in place and through a row map
 * (rows reversed, with the epilogue), 1 and 2 threads; where the kernel
 * takes no taps, the call is refused. With row_run, the padding comes in
 * runs of that many rows and the frame is told each row's taps
 * (row_tap_mask), so that it may cut tiles to them. */
static void run_taps_cut(int64_t M, int64_t N, int64_t ntaps, int64_t k_tap,
                         float beta, tsr_gemm_bias_kind_t bias, int row_map,
                         int64_t row_run) {
    const problem_t p = {0, 0, M, N, ntaps * k_tap, 1.f, beta, 0, 0, 3, bias};
    buffers_t b = make_buffers(&p, 1);
    float *zeros = calloc((size_t)k_tap, sizeof(float));
    const taps_ctx_t ctx = {(const char *)b.A,
                            b.lda * (int64_t)sizeof(float),
                            k_tap * (int64_t)sizeof(float),
                            ntaps,
                            zeros,
                            0,
                            row_run};
    for (int64_t m = 0; m < M; ++m)
        for (int64_t t = 0; t < ntaps; ++t)
            if (tap_in_padding(&ctx, m, t))
                memset(b.A + m * b.lda + t * k_tap, 0,
                       sizeof(float) * (size_t)k_tap);
    float *c_in = copy_c(&b);
    const tsr_gemm_taps_t taps = {ntaps, k_tap, list_taps, &ctx,
                                  row_run > 0 ? row_tap_mask : NULL};
    float *packed = prepack_b(&b);
    tsr_gemm_f32_args_t args = make_args(&b);
    args.A = NULL; /* unused */
    args.a_taps = &taps;
    args.B = packed;
    args.b_prepacked = 1;
    char d[200];
    describe(&p, d, sizeof(d));
    if (!tsr_gemm_f32_taps_supported(ntaps, k_tap)) {
        CHECK(tsr_gemm_f32(&args) == tsr_invalid_arguments,
              "%s: taps accepted by a kernel without them", d);
    } else if (!row_map) {
        for (int nthr = 1; nthr <= 2; ++nthr) {
            memcpy(b.C, c_in, sizeof(float) * (size_t)(M * b.ldc + 1));
            omp_set_num_threads(nthr);
            CHECK(tsr_gemm_f32(&args) == tsr_success, "%s taps: status", d);
            check_result(&b, c_in, 1);
        }
    } else {
        /* Rows reversed: GEMM row m is stored at C row M - 1 - m. */
        int64_t *row_off = malloc(sizeof(int64_t) * (size_t)M);
        for (int64_t m = 0; m < M; ++m)
            row_off[m] = (M - 1 - m) * b.ldc;
        float *c_mapped = malloc(sizeof(float) * (size_t)(M * b.ldc + 1));
        for (int64_t m = 0; m < M; ++m)
            memcpy(c_mapped + row_off[m], c_in + m * b.ldc,
                   sizeof(float) * (size_t)b.ldc);
        int *visits = calloc((size_t)(M * N), sizeof(int));
        row_map_ctx_t ectx = {visits, c_mapped, row_off, N, 0};
        args.C = c_mapped;
        args.c_row_off = row_off;
        args.epilogue = count_mapped_rows;
        args.epilogue_ctx = &ectx;
        CHECK(tsr_gemm_f32(&args) == tsr_success, "%s row map: status", d);
        CHECK(!ectx.bad_pointer, "%s row map: wrong epilogue row", d);
        int64_t wrong_visits = 0;
        for (int64_t i = 0; i < M * N; ++i)
            wrong_visits += visits[i] != 1;
        CHECK(wrong_visits == 0, "%s row map: %ld elements not visited once", d,
              (long)wrong_visits);
        /* Back in GEMM row order, y = 2x - 1 undone. */
        for (int64_t m = 0; m < M; ++m)
            for (int64_t j = 0; j < b.ldc; ++j) {
                const float v = c_mapped[row_off[m] + j];
                b.C[m * b.ldc + j] = j < N ? (v + 1.f) / 2.f : v;
            }
        check_result(&b, c_in, 1);
        free(visits);
        free(c_mapped);
        free(row_off);
    }
    omp_set_num_threads(default_nthr);
    free(packed);
    free(zeros);
    free(c_in);
    free_buffers(&b);
}

static void run_taps(int64_t M, int64_t N, int64_t ntaps, int64_t k_tap,
                     float beta, tsr_gemm_bias_kind_t bias, int row_map) {
    run_taps_cut(M, N, ntaps, k_tap, beta, bias, row_map, 0);
}

static void test_taps(void) {
    const tsr_gemm_bias_kind_t col = tsr_gemm_bias_per_col,
                               row = tsr_gemm_bias_per_row,
                               none = tsr_gemm_bias_none;
    run_taps(1, 1, 1, 1, 0.f, none, 0);
    /* N of 49 to 64 (on one thread) takes the AVX-512 wide taps tiles:
     * full 12-row tiles as two 6x64 halves, short ones a panel at a
     * time; 33 to 48 a panel and a half one. */
    run_taps(7, 33, 9, 8, 0.f, col, 0);
    run_taps(30, 60, 9, 8, 0.f, row, 0);
    run_taps(13, 70, 3, 64, 1.f, row, 0);
    run_taps(100, 40, 25, 12, 0.f, col, 0); /* more rows than one block */
    run_taps(200, 96, 2, 16, -1.f, none, 0);
    /* Short tiles of the 6-row (AVX2) and 12-row (AVX-512) kernels. */
    run_taps(9, 20, 5, 4, 0.f, none, 0);  /* 3 rows; 9 */
    run_taps(11, 32, 4, 7, 0.f, col, 0);  /* 5 rows; 11 */
    run_taps(8, 16, 4, 3, 0.f, none, 0);  /* 2 rows; 8 */
    run_taps(14, 24, 3, 5, 0.f, row, 0);  /* 2 rows twice */
    run_taps(17, 40, 9, 6, 1.f, none, 0); /* 5 rows */
    run_taps(27, 33, 4, 9, 0.f, col, 0);  /* 3 rows */
    run_taps(49, 40, 9, 8, 1.f, row, 0);  /* 1 row; a 7x7 image */
    /* One tap: tiles of equal heights (49 rows: 5 x 10 or 9 x 6, 4 x
     * 5; 13: 7 + 6; 100 over two blocks). */
    run_taps(49, 96, 1, 16, 0.f, col, 0);
    run_taps(13, 70, 1, 8, 1.f, row, 1);
    run_taps(100, 80, 1, 5, 0.f, none, 0);
    run_taps(6, 16, TSR_GEMM_MAX_TAPS, 4, 0.f, row, 0);
    run_taps(23, 50, 9, 16, 0.f, col, 1);
    run_taps(130, 64, 9, 8, 2.f, none, 1);
    /* Tiles cut to runs of rows with the same padding (AVX-512: more
     * than two panels): a 7x7 image's rows of 7 points; runs of 5 over
     * two blocks; runs of 3 (tiles of at least 4 rows mix runs) through
     * a row map; a block of 3 rows; every tap of 64; a lone tap in
     * 1 row of 5. */
    run_taps_cut(49, 96, 9, 8, 0.f, col, 0, 7);
    run_taps_cut(150, 70, 9, 16, 1.f, row, 0, 5);
    run_taps_cut(130, 100, 4, 8, 0.f, none, 1, 3);
    run_taps_cut(3, 80, 9, 4, 0.f, col, 0, 7);
    run_taps_cut(40, 72, TSR_GEMM_MAX_TAPS, 2, -1.f, row, 0, 6);
    run_taps_cut(26, 65, 2, 24, 0.f, none, 1, 1);

    /* Refused: B not prepacked, K not ntaps * k_tap, more taps than
     * listed per call, a row map without taps. */
    const problem_t p = {0, 0, 4, 5, 8, 1.f, 0.f, 0, 0, 0, tsr_gemm_bias_none};
    buffers_t b = make_buffers(&p, 1);
    float *c_in = copy_c(&b);
    float *packed = prepack_b(&b);
    const taps_ctx_t ctx = {(const char *)b.A,
                            b.lda * (int64_t)sizeof(float),
                            4 * (int64_t)sizeof(float),
                            2,
                            b.A,
                            0,
                            0};
    tsr_gemm_taps_t taps = {2, 4, list_taps, &ctx, NULL};
    tsr_gemm_f32_args_t good = make_args(&b), a;
    good.a_taps = &taps;
    good.B = packed;
    good.b_prepacked = 1;
    const int64_t row_off[4] = {0, 0, 0, 0};
    for (int which = 0; which < 4; ++which) {
        a = good;
        taps.ntaps = 2;
        switch (which) {
        case 0:
            a.b_prepacked = 0;
            a.B = b.B;
            break;
        case 1:
            a.K = 12;
            break;
        case 2:
            taps.ntaps = TSR_GEMM_MAX_TAPS + 1;
            a.K = taps.ntaps * 4;
            break;
        case 3:
            a.a_taps = NULL;
            a.A = b.A;
            a.c_row_off = row_off;
            break;
        }
        CHECK(tsr_gemm_f32(&a) == tsr_invalid_arguments,
              "taps: bad argument %d accepted", which);
        CHECK(memcmp(c_in, b.C, sizeof(float) * (size_t)(p.M * b.ldc)) == 0,
              "taps: bad argument %d changed C", which);
    }
    CHECK(!tsr_gemm_f32_taps_supported(TSR_GEMM_MAX_TAPS + 1, 4),
          "more taps than listed per call supported");
    free(packed);
    free(c_in);
    free_buffers(&b);
}

int main(void) {
    default_nthr = omp_get_max_threads();
    kernel = tsr_gemm_f32_select_kernel();
    test_kernel_selection();
    test_tails();
    test_block_boundaries();
    test_real_values();
    test_degenerate();
    test_epilogue();
    test_thread_invariance();
    test_single_row();
    test_narrow_blocks();
    test_invalid_arguments();
    test_taps();
    printf("test_gemm_f32: %d checks, %d failed\n", n_checks, n_failures);
    return n_failures ? 1 : 0;
}
