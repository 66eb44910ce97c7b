/* The int8 GEMM engine against a naive 64-bit reference (reduced modulo
 * 2^32 as the contract says): every M/N/K tail around the kernel tile and
 * the cache blocks, u8 and s8 A, both transpositions, padded leading
 * dimensions, column offsets, extreme values (255 x 127, -128 x -128,
 * mixed signs over long K, a sum that wraps), narrow B (the AVX2 quad
 * kernel's domain) up to its edge and one past it, the few-rows path (M <= 4,
 * B as stored), the epilogue callback with the caller's C and with C in
 * scratch (and next to it the kernels' common store into dst), prepacked B, A
 * given by taps or tap offsets (where the kernel takes them), user scratch,
 * thread teams, the
 * column-sum helper and argument checks. Whichever kernel the CPU (capped by
 * TSR_MAX_CPU_ISA) selects is the one tested. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "common/isa.h"
#include "cpu/gemm/gemm_s8.h"
#include "cpu/gemm/gemm_s8_impl.h"
#include "gemm_taps_util.h"

/* Value in the padding of C (columns ldc > N): must survive. */
#define C_PAD_SENTINEL 0x5a5a5a5a

/* narrow: B in [-64, 64], so every pair of adjacent K values of a column
 * has |b0| + |b1| <= 128 (the AVX2 quad kernel's precondition);
 * narrow_edge: every such pair sums to exactly 128 in magnitude, A at its
 * maximum (the largest pair sums that kernel must not saturate);
 * one_wide: narrow_edge with one pair of 129 (that B block goes to the
 * fallback kernel). */
typedef enum {
    fill_random,
    fill_max,
    fill_min,
    fill_extreme,
    fill_narrow,
    fill_narrow_edge,
    fill_one_wide,
} fill_t;

typedef struct {
    int transa, transb;
    tsr_data_type_t a_dt;
    int64_t M, N, K;
    int64_t lda_pad, ldb_pad, ldc_pad;
    int with_offset;
    fill_t fill;
} problem_t;

/* op(A), op(B) in their stored orientation, the expected C. */
typedef struct {
    problem_t p;
    int64_t lda, ldb, ldc;
    uint8_t *A; /* u8 or s8 bits */
    int8_t *B;
    int32_t *offset, *ref;
} buffers_t;

static uint32_t rng_state = 2024u;
static uint32_t rng(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* A value of A's type / of B for the fill mode: max is 255 (u8) or 127
 * (s8) against 127, min is 0 / -128 against -128 (the largest products of
 * each sign combination), extreme picks either end at random. */
static uint8_t a_value(tsr_data_type_t dt, fill_t f) {
    const int u8 = dt == tsr_u8;
    const int hi = u8 ? 255 : 127, lo = u8 ? 0 : -128;
    int v;
    switch (f) {
    case fill_max:
        v = hi;
        break;
    case fill_min:
        v = u8 ? hi : lo;
        break; /* u8 max x s8 min */
    case fill_extreme:
        v = rng() % 2 ? hi : lo;
        break;
    case fill_narrow_edge:
    case fill_one_wide:
        v = hi;
        break;
    default:
        v = u8 ? (int)(rng() % 256) : (int)(rng() % 256) - 128;
    }
    return (uint8_t)v;
}
static int8_t b_value(fill_t f) {
    switch (f) {
    case fill_max:
        return 127;
    case fill_min:
        return -128;
    case fill_extreme:
        return rng() % 2 ? 127 : -128;
    case fill_narrow:
        return (int8_t)((int)(rng() % 129) - 64);
    default:
        return (int8_t)((int)(rng() % 256) - 128);
    }
}

static int32_t a_at(const buffers_t *b, int64_t m, int64_t k) {
    const uint8_t v = b->p.transa ? b->A[k * b->lda + m] : b->A[m * b->lda + k];
    return b->p.a_dt == tsr_u8 ? (int32_t)v : (int32_t)(int8_t)v;
}
static int32_t b_at(const buffers_t *b, int64_t k, int64_t n) {
    return b->p.transb ? b->B[n * b->ldb + k] : b->B[k * b->ldb + n];
}

static int8_t *b_ptr(const buffers_t *b, int64_t k, int64_t n) {
    return b->p.transb ? &b->B[n * b->ldb + k] : &b->B[k * b->ldb + n];
}

/* The pairs of fill_narrow_edge: |b0| + |b1| == 128 with random signs
 * (b0 == 0 gives b1 == -128); fill_one_wide then makes one pair 65, 64. */
static void set_edge_pairs(buffers_t *b) {
    const problem_t *p = &b->p;
    for (int64_t n = 0; n < p->N; ++n)
        for (int64_t k = 0; k + 1 < p->K; k += 2) {
            const int v = (int)(rng() % 256) - 128;
            const int w = 128 - (v < 0 ? -v : v);
            *b_ptr(b, k, n) = (int8_t)v;
            *b_ptr(b, k + 1, n) = (int8_t)(w == 128 || rng() % 2 ? -w : w);
        }
    if (p->fill == fill_one_wide && p->K >= 2) {
        const int64_t k = (p->K / 2) & ~(int64_t)1;
        *b_ptr(b, k, p->N - 1) = 65;
        *b_ptr(b, k + 1, p->N - 1) = 64;
    }
}

/* The expected C of the buffers' A and B. */
static void compute_ref(buffers_t *b) {
    const problem_t *p = &b->p;
    for (int64_t m = 0; m < p->M; ++m)
        for (int64_t n = 0; n < p->N; ++n) {
            int64_t s = p->with_offset ? b->offset[n] : 0;
            for (int64_t k = 0; k < p->K; ++k)
                s += (int64_t)a_at(b, m, k) * b_at(b, k, n);
            /* The contract: the true sum modulo 2^32. */
            b->ref[m * p->N + n] = (int32_t)(uint32_t)(uint64_t)s;
        }
}

static buffers_t make_buffers(const problem_t *p) {
    buffers_t b = {*p, 0, 0, 0, NULL, NULL, NULL, NULL};
    const int64_t a_rows = p->transa ? p->K : p->M;
    const int64_t b_rows = p->transb ? p->N : p->K;
    b.lda = (p->transa ? p->M : p->K) + p->lda_pad;
    b.ldb = (p->transb ? p->K : p->N) + p->ldb_pad;
    b.ldc = p->N + p->ldc_pad;
    b.A = malloc((size_t)(a_rows * b.lda + 1));
    b.B = malloc((size_t)(b_rows * b.ldb + 1));
    b.offset = malloc(sizeof(int32_t) * (size_t)(p->N + 1));
    b.ref = malloc(sizeof(int32_t) * (size_t)(p->M * p->N + 1));
    for (int64_t i = 0; i < a_rows * b.lda; ++i)
        b.A[i] = a_value(p->a_dt, p->fill);
    for (int64_t i = 0; i < b_rows * b.ldb; ++i)
        b.B[i] = b_value(p->fill);
    if (p->fill == fill_narrow_edge || p->fill == fill_one_wide)
        set_edge_pairs(&b);
    for (int64_t n = 0; n < p->N; ++n)
        b.offset[n] = (int32_t)(rng() % 2000001) - 1000000;
    compute_ref(&b);
    return b;
}

static void free_buffers(buffers_t *b) {
    free(b->A);
    free(b->B);
    free(b->offset);
    free(b->ref);
}

static tsr_gemm_s8_args_t make_args(const buffers_t *b, int32_t *C) {
    tsr_gemm_s8_args_t a;
    memset(&a, 0, sizeof(a));
    a.transa = b->p.transa;
    a.transb = b->p.transb;
    a.M = b->p.M;
    a.N = b->p.N;
    a.K = b->p.K;
    a.a_dt = b->p.a_dt;
    a.A = b->A;
    a.lda = b->lda;
    a.B = b->B;
    a.ldb = b->ldb;
    a.C = C;
    a.ldc = b->ldc;
    a.col_offset = b->p.with_offset ? b->offset : NULL;
    return a;
}

static void describe(const problem_t *p) {
    printf("  problem: trans %d%d %s M %lld N %lld K %lld pads %lld/%lld/%lld "
           "offset %d fill %d\n",
           p->transa, p->transb, p->a_dt == tsr_u8 ? "u8" : "s8",
           (long long)p->M, (long long)p->N, (long long)p->K,
           (long long)p->lda_pad, (long long)p->ldb_pad, (long long)p->ldc_pad,
           p->with_offset, (int)p->fill);
}

/* Compares C (row stride ldc, padding untouched) with the reference. */
static int check_c(const buffers_t *b, const int32_t *C, int64_t ldc,
                   const char *mode) {
    int64_t bad = 0;
    for (int64_t m = 0; m < b->p.M; ++m) {
        for (int64_t n = 0; n < b->p.N; ++n)
            bad += C[m * ldc + n] != b->ref[m * b->p.N + n];
        for (int64_t n = b->p.N; n < ldc; ++n)
            bad += C[m * ldc + n] != C_PAD_SENTINEL;
    }
    static int reported = 0;
    if (!CHECK(bad == 0) && ++reported <= 10) {
        printf("  %s: %lld wrong elements\n", mode, (long long)bad);
        describe(&b->p);
    }
    return bad == 0;
}

static int32_t *new_c(const buffers_t *b) {
    const int64_t n = b->p.M * b->ldc + 1;
    int32_t *C = malloc(sizeof(int32_t) * (size_t)n);
    for (int64_t i = 0; i < n; ++i)
        C[i] = C_PAD_SENTINEL;
    return C;
}

/* The epilogue callback of the tests: copies each tile into `out`, counts
 * visits per element and scribbles over the f32 work buffer (which must
 * have room for m * n floats). */
typedef struct {
    int32_t *out;
    int *visits;
    int64_t ld;
} collect_t;

static void collect_tile(const void *ctx_, const int32_t *tile, int64_t ld,
                         int64_t m0, int64_t n0, int64_t m, int64_t n,
                         float *f32_work) {
    const collect_t *ctx = ctx_;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            f32_work[i * n + j] = (float)tile[i * ld + j];
            ctx->out[(m0 + i) * ctx->ld + n0 + j] = tile[i * ld + j];
#pragma omp atomic
            ctx->visits[(m0 + i) * ctx->ld + n0 + j]++;
        }
}

/* args with C in scratch, the tiles going to collect_tile (into ctx's
 * out and visits, allocated here for the caller to free) and the kernels'
 * store into dst through ds. */
static tsr_gemm_s8_args_t collecting_args(const buffers_t *b,
                                          tsr_gemm_s8_args_t args,
                                          const tsr_gemm_s8_dst_t *ds,
                                          collect_t *ctx) {
    ctx->out = new_c(b);
    ctx->visits = calloc((size_t)(b->p.M * b->ldc + 1), sizeof(int));
    ctx->ld = b->ldc;
    args.C = NULL;
    args.epilogue = collect_tile;
    args.epilogue_ctx = ctx;
    args.dst_store = ds;
    return args;
}

/* B in the prepacked layout of the current kernel, built from the
 * documented formula (NULL when the kernel reads no prepacked B). */
static int8_t *prepack_b(const buffers_t *b, int64_t *bytes) {
    const int nr = tsr_gemm_s8_prepacked_nr();
    if (!nr)
        return NULL;
    const int64_t kpad = (b->p.K + 3) / 4 * 4;
    const int64_t panels = (b->p.N + nr - 1) / nr;
    *bytes = panels * kpad * nr;
    int8_t *packed = calloc((size_t)*bytes + 1, 1);
    for (int64_t k = 0; k < b->p.K; ++k)
        for (int64_t n = 0; n < b->p.N; ++n)
            packed[n / nr * kpad * nr + (k / 4 * nr + n % nr) * 4 + k % 4] =
                    (int8_t)b_at(b, k, n);
    return packed;
}

/* The problem on prepacked B, when the kernel reads it and B fits it;
 * with an s8 A the column sums go along, as the contract asks. */
static void run_prepacked(const buffers_t *b, int32_t *C) {
    int64_t bytes = 0;
    int8_t *packed = prepack_b(b, &bytes);
    if (!packed || !tsr_gemm_s8_prepacked_fits(packed, bytes)) {
        free(packed);
        return;
    }
    int32_t *sums = malloc(sizeof(int32_t) * (size_t)(b->p.N + 1));
    tsr_gemm_s8_col_sums(b->p.transb, b->p.K, b->p.N, b->B, b->ldb, NULL, 1,
                         sums);
    tsr_gemm_s8_args_t args = make_args(b, C);
    args.B = packed;
    args.transb = !b->p.transb; /* ignored */
    args.ldb = 0;               /* ignored */
    args.b_prepacked = 1;
    args.b_col_sums = b->p.a_dt == tsr_s8 ? sums : NULL;
    for (int64_t i = 0; i < b->p.M * b->ldc; ++i)
        C[i] = C_PAD_SENTINEL;
    if (CHECK(tsr_gemm_s8(&args) == tsr_success))
        check_c(b, C, b->ldc, "prepacked B");
    if (b->p.a_dt == tsr_s8 && b->p.K > 0) {
        args.b_col_sums = NULL; /* required with s8 A */
        CHECK(tsr_gemm_s8(&args) == tsr_invalid_arguments);
    }
    free(sums);
    free(packed);
}

/* The common store into dst (tsr_gemm_s8_args_t.dst_store) next to the
 * callback: every element reaches exactly one of them, the dst elements
 * hold the form's result and the rest of dst stays untouched. Two forms:
 * plain f32 and u8 with per-column scales, bias and a ReLU. The store is
 * AVX2 code: other CPUs skip it. */
static void check_dst_store(const buffers_t *b, tsr_gemm_s8_args_t args,
                            const char *mode) {
    if (!tsr_mayiuse(tsr_cpu_isa_avx2))
        return;
    const int64_t M = b->p.M, N = b->p.N, ldd = N + 3;
    float *bias = malloc(sizeof(float) * (size_t)(N + 1));
    float *scale = malloc(sizeof(float) * (size_t)(N + 1));
    for (int64_t n = 0; n < N; ++n) {
        bias[n] = (float)(n % 7) - 3.f;
        scale[n] = 0.5f + 0.25f * (float)(n % 3);
    }
    for (int u8 = 0; u8 < 2; ++u8) {
        const tsr_data_type_t dt = u8 ? tsr_u8 : tsr_f32;
        tsr_epilogue_fused_plan_t plan;
        memset(&plan, 0, sizeof(plan));
        plan.ok = 1;
        if (u8) {
            plan.legacy = plan.with_bias = plan.oscale_per_channel = 1;
            plan.nops = 1;
            plan.p1[0] = 1.f; /* ReLU, alpha 0, scale 1 */
        }
        tsr_epilogue_common_t cs;
        memset(&cs, 0, sizeof(cs));
        cs.f.plan = &plan;
        cs.f.bias = u8 ? bias : NULL;
        cs.f.oscale = u8 ? scale : NULL;
        const int form = tsr_epilogue_common_form(&plan, dt, tsr_round_nearest);
        if (!CHECK(form > 0))
            break;
        tsr_epilogue_common_kernels(&cs, dt, form);
        const size_t dst_bytes = (size_t)(M * ldd * cs.dt_bytes + 1);
        unsigned char *dst = malloc(dst_bytes);
        memset(dst, 0xa5, dst_bytes);
        const tsr_gemm_s8_dst_t ds = {&cs, dst, ldd, NULL};
        collect_t ctx;
        const tsr_gemm_s8_args_t a = collecting_args(b, args, &ds, &ctx);
        const int32_t *out = ctx.out;
        const int *visits = ctx.visits;
        int64_t bad = 0;
        if (CHECK(tsr_gemm_s8(&a) == tsr_success))
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < ldd; ++n) {
                    const unsigned char *d = dst + (m * ldd + n) * cs.dt_bytes;
                    const int untouched =
                            d[0] == 0xa5 && d[cs.dt_bytes - 1] == 0xa5;
                    if (n >= N || visits[m * b->ldc + n]) {
                        bad += !untouched ||
                               (n < N &&
                                (visits[m * b->ldc + n] != 1 ||
                                 out[m * b->ldc + n] != b->ref[m * N + n]));
                        continue;
                    }
                    float v = (float)b->ref[m * N + n];
                    if (!u8) {
                        float got;
                        memcpy(&got, d, sizeof(got));
                        bad += got != v;
                        continue;
                    }
                    v = (v + bias[n]) * scale[n];
                    v = v > 0.f ? v : 0.f;
                    v = v < 255.f ? nearbyintf(v) : 255.f;
                    bad += d[0] != (unsigned char)v;
                }
        static int reported = 0;
        if (!CHECK(bad == 0) && ++reported <= 10) {
            printf("  %s, dst store %s: %lld wrong elements\n", mode,
                   u8 ? "u8" : "f32", (long long)bad);
            describe(&b->p);
        }
        free(ctx.visits);
        free(ctx.out);
        free(dst);
    }
    free(scale);
    free(bias);
}

/* The call with C == NULL and the epilogue collecting the tiles: they
 * hold the reference and visit every element once. */
static void check_in_scratch(const buffers_t *b, tsr_gemm_s8_args_t args,
                             const char *mode) {
    int32_t *out = new_c(b);
    int *visits = calloc((size_t)(b->p.M * b->ldc + 1), sizeof(int));
    collect_t ctx = {out, visits, b->ldc};
    args.C = NULL;
    args.epilogue = collect_tile;
    args.epilogue_ctx = &ctx;
    if (CHECK(tsr_gemm_s8(&args) == tsr_success))
        check_c(b, out, b->ldc, mode);
    int64_t wrong_visits = 0;
    for (int64_t m = 0; m < b->p.M; ++m)
        for (int64_t n = 0; n < b->p.N; ++n)
            wrong_visits += visits[m * b->ldc + n] != 1;
    CHECK(wrong_visits == 0);
    free(visits);
    free(out);
    check_dst_store(b, args, mode);
}

/* Runs the problem with the caller's C, then with C == NULL and the
 * epilogue collecting the tiles, then with both. */
static void run_problem(const problem_t *p) {
    buffers_t b = make_buffers(p);
    int32_t *C = new_c(&b);
    tsr_gemm_s8_args_t args = make_args(&b, C);
    if (CHECK(tsr_gemm_s8(&args) == tsr_success))
        check_c(&b, C, b.ldc, "caller's C");
    check_in_scratch(&b, args, "C in scratch");

    /* With the caller's C the tiles are views of C itself. */
    int32_t *out = new_c(&b);
    int *visits = calloc((size_t)(p->M * b.ldc + 1), sizeof(int));
    collect_t ctx = {out, visits, b.ldc};
    args.epilogue = collect_tile;
    args.epilogue_ctx = &ctx;
    for (int64_t i = 0; i < p->M * b.ldc; ++i)
        C[i] = C_PAD_SENTINEL;
    if (CHECK(tsr_gemm_s8(&args) == tsr_success)) {
        check_c(&b, C, b.ldc, "caller's C + epilogue (C)");
        check_c(&b, out, b.ldc, "caller's C + epilogue (tiles)");
    }
    /* Rows padded to whole K quads (as a convolution's col): the bytes
     * past K hold whatever the padding of A holds and must not count. */
    if (!p->transa && b.lda >= (p->K + 3) / 4 * 4 && p->K % 4) {
        for (int64_t i = 0; i < p->M * b.ldc; ++i)
            C[i] = C_PAD_SENTINEL;
        args.a_rows_padded = 1;
        args.epilogue = NULL;
        if (CHECK(tsr_gemm_s8(&args) == tsr_success))
            check_c(&b, C, b.ldc, "rows padded to K quads");
        args.a_rows_padded = 0;
        args.epilogue = collect_tile;
    }
    /* s8 A with B's column sums given, as int8 weights carry them. */
    if (p->a_dt == tsr_s8 && p->N > 0) {
        int32_t *sums = malloc(sizeof(int32_t) * (size_t)p->N);
        tsr_gemm_s8_col_sums(p->transb, p->K, p->N, b.B, b.ldb, NULL, 1, sums);
        for (int64_t i = 0; i < p->M * b.ldc; ++i)
            C[i] = C_PAD_SENTINEL;
        args.b_col_sums = sums;
        args.epilogue = NULL;
        if (CHECK(tsr_gemm_s8(&args) == tsr_success))
            check_c(&b, C, b.ldc, "given column sums");
        free(sums);
    }
    run_prepacked(&b, C);
    free(visits);
    free(out);
    free(C);
    free_buffers(&b);
}

/* 1 for the row counts the tails test takes: the first few, and those
 * around each half tile up to two tiles (every count for 6-row tiles;
 * the 16-row halves of the 32-row AMX tile). */
static int tail_rows(int64_t M, int mr) {
    if (M <= 8)
        return 1;
    for (int64_t h = 1; h <= 4; ++h)
        if (M >= h * mr / 2 - 1 && M <= h * mr / 2 + 1)
            return 1;
    return 0;
}

/* Every N, and M and K around the tile and the K group (67: a whole
 * 64-value step of the AMX kernel and a tail), all layouts and types. */
static void test_tails(const tsr_gemm_s8_kernel_t *kern, fill_t fill) {
    static const int64_t ks[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 67};
    for (int t = 0; t < 8; ++t)
        for (int64_t M = 1; M <= 2 * kern->mr + 1; ++M)
            for (int64_t N = 1; N <= 2 * kern->nr + 1; ++N)
                for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ++ki) {
                    if (!tail_rows(M, kern->mr))
                        continue;
                    const problem_t p = {t & 1,
                                         (t >> 1) & 1,
                                         t & 4 ? tsr_s8 : tsr_u8,
                                         M,
                                         N,
                                         ks[ki],
                                         (M + N) % 3,
                                         (N + ks[ki]) % 2,
                                         M % 2,
                                         (int)((M + N + ks[ki]) % 2),
                                         fill};
                    run_problem(&p);
                }
}

/* Sizes across the cache blocks (mc, kc and the K-dependent nc, which is
 * the kernel's nc for short K). */
static void test_blocks(const tsr_gemm_s8_kernel_t *kern, fill_t fill) {
    const int64_t mc = kern->mc, kc = kern->kc;
    const int64_t dims[][3] = {
            {mc - 1, 40, kc - 1},
            {mc, 33, kc},
            {mc + 1, 17, kc + 1},
            {2 * mc + kern->mr + 1, 70, 2 * kc + 3},
            {37, 530, 2100},
            {13, 300, 700},
            {9, 2 * kern->nc + 37, 40},
            {3, 2 * kern->nc + 37, 2 * kc + 3},
            {2 * mc + 5, 2 * kern->nr + 3, 3 * kc + 1},
    };
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); ++i)
        for (int t = 0; t < 8; ++t) {
            const problem_t p = {
                    t & 1,      (t >> 1) & 1, t & 4 ? tsr_s8 : tsr_u8,
                    dims[i][0], dims[i][1],   dims[i][2],
                    t % 3,      t % 2,        (t + 1) % 3,
                    t % 2,      fill};
            run_problem(&p);
        }
}

/* Saturation-prone inputs over long K, and a sum that wraps 2^32. */
static void test_extremes(const tsr_gemm_s8_kernel_t *kern) {
    static const fill_t fills[] = {fill_max, fill_min, fill_extreme};
    const int64_t K[] = {2 * kern->kc + 7, 4097};
    for (size_t f = 0; f < 3; ++f)
        for (size_t ki = 0; ki < 2; ++ki)
            for (int t = 0; t < 8; ++t) {
                const problem_t p = {t & 1,
                                     (t >> 1) & 1,
                                     t & 4 ? tsr_s8 : tsr_u8,
                                     kern->mr + 1,
                                     kern->nr + 3,
                                     K[ki],
                                     0,
                                     1,
                                     2,
                                     t % 2,
                                     fills[f]};
                run_problem(&p);
            }
    /* The few-rows path of the same. */
    for (size_t f = 0; f < 3; ++f)
        for (int t = 0; t < 4; ++t) {
            const problem_t p = {t & 1,
                                 0,
                                 t & 2 ? tsr_s8 : tsr_u8,
                                 2,
                                 kern->nr + 3,
                                 K[1],
                                 1,
                                 0,
                                 1,
                                 t % 2,
                                 fills[f]};
            run_problem(&p);
        }
    /* 255 * 127 * 70001 > 2^31: the result is the wrapped true sum. */
    const problem_t wrap = {0, 0, tsr_u8, 3, 5, 70001, 0, 0, 0, 1, fill_max};
    run_problem(&wrap);
}

/* Runs `args` with `team` threads in the caller's own parallel region. */
static tsr_status_t run_in_team(tsr_gemm_s8_args_t args, int team,
                                int user_scratch) {
    const size_t size = tsr_gemm_s8_scratch_size(args.M, args.N, args.K,
                                                 args.C == NULL, team);
    void *scratch = user_scratch ? malloc(size) : NULL;
    args.team_nthr = team;
    args.scratch = scratch;
    args.scratch_size = user_scratch ? size : 0;
    tsr_status_t st = tsr_success;
#pragma omp parallel num_threads(team)
    {
        tsr_gemm_s8_args_t mine = args;
        mine.team_ithr = omp_get_thread_num();
        const tsr_status_t s = tsr_gemm_s8(&mine);
        if (s != tsr_success) {
#pragma omp critical
            st = s;
        }
    }
    free(scratch);
    return st;
}

/* Own OpenMP region on 1 and 2 threads, user scratch, caller teams of 1, 2
 * and 3, with C and with C in scratch. */
static void test_threads(void) {
    const problem_t p = {0, 1, tsr_s8, 150, 97, 300, 1, 2, 3, 1, fill_random};
    buffers_t b = make_buffers(&p);
    for (int variant = 0; variant < 7; ++variant) {
        int32_t *C = new_c(&b);
        tsr_gemm_s8_args_t args = make_args(&b, C);
        tsr_status_t st;
        if (variant < 2) {
            omp_set_num_threads(variant + 1);
            st = tsr_gemm_s8(&args);
            omp_set_num_threads(2);
        } else if (variant == 2) {
            args.scratch_size = tsr_gemm_s8_scratch_size(p.M, p.N, p.K, 0, 2);
            args.scratch = malloc(args.scratch_size);
            st = tsr_gemm_s8(&args);
            free(args.scratch);
        } else {
            static const int team[] = {1, 2, 3, 2};
            st = run_in_team(args, team[variant - 3], variant != 6);
        }
        if (CHECK(st == tsr_success))
            check_c(&b, C, b.ldc, "threads");
        free(C);
    }
    /* A team whose threads keep C in scratch. */
    int32_t *out = new_c(&b);
    int *visits = calloc((size_t)(p.M * b.ldc + 1), sizeof(int));
    collect_t ctx = {out, visits, b.ldc};
    tsr_gemm_s8_args_t args = make_args(&b, NULL);
    args.epilogue = collect_tile;
    args.epilogue_ctx = &ctx;
    if (CHECK(run_in_team(args, 2, 1) == tsr_success))
        check_c(&b, out, b.ldc, "team, C in scratch");
    free(visits);
    free(out);
    free_buffers(&b);
}

/* Calls in a row on one thread with keep_tiles (the tiles' set-up kept
 * across row counts and K steps that change it), then
 * tsr_gemm_s8_release_tiles and a call without: every result exact. */
static void test_keep_tiles(void) {
    static const problem_t ps[] = {
            {0, 0, tsr_u8, 70, 40, 67, 0, 0, 0, 0, fill_random},
            {0, 1, tsr_s8, 17, 33, 64, 1, 0, 2, 1, fill_random},
            {0, 0, tsr_u8, 33, 64, 20, 0, 3, 0, 0, fill_random},
            {0, 0, tsr_s8, 32, 32, 300, 0, 0, 0, 1, fill_random},
            {0, 0, tsr_u8, 5, 9, 12, 0, 0, 0, 0, fill_random},
    };
    const int n = (int)(sizeof(ps) / sizeof(ps[0]));
    for (int i = 0; i <= n; ++i) {
        const int last = i == n; /* after the release: the first again */
        buffers_t b = make_buffers(&ps[last ? 0 : i]);
        int32_t *C = new_c(&b);
        tsr_gemm_s8_args_t args = make_args(&b, C);
        args.team_nthr = 1;
        args.team_ithr = 0;
        args.keep_tiles = !last;
        if (CHECK(tsr_gemm_s8(&args) == tsr_success))
            check_c(&b, C, b.ldc, last ? "after keep_tiles" : "keep_tiles");
        if (i == n - 1)
            tsr_gemm_s8_release_tiles();
        free(C);
        free_buffers(&b);
    }
}

static void test_col_sums(void) {
    const int8_t B[2][3] = {{1, -128, 127}, {-5, -128, 127}};
    int32_t s[3];
    tsr_gemm_s8_col_sums(0, 2, 3, &B[0][0], 3, NULL, -3, s);
    CHECK(s[0] == 12 && s[1] == 768 && s[2] == -762);
    tsr_gemm_s8_col_sums(1, 3, 2, &B[0][0], 3, NULL, 1, s);
    CHECK(s[0] == 0 && s[1] == -6);
    /* Known sums: only scaled, B not read; wraps modulo 2^32. */
    const int32_t known[3] = {-4, -256, INT32_MAX};
    tsr_gemm_s8_col_sums(0, 2, 3, NULL, 3, known, -3, s);
    CHECK(s[0] == 12 && s[1] == 768 &&
          s[2] == (int32_t)((uint32_t)INT32_MAX * (uint32_t)-3));
}

static void test_invalid(void) {
    const problem_t p = {0, 0, tsr_u8, 4, 5, 6, 0, 0, 0, 0, fill_random};
    buffers_t b = make_buffers(&p);
    int32_t *C = new_c(&b);
    tsr_gemm_s8_args_t good = make_args(&b, C), a;
    a = good;
    a.M = -1;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.a_dt = tsr_f32;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.lda = 5;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.ldb = 4;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.ldc = 4;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.C = NULL; /* without an epilogue */
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.B = NULL;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.team_nthr = 2;
    a.team_ithr = 2;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.a_rows_padded = 1; /* lda 6 < rnd_up(K, 4) */
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    char small[8];
    a = good;
    a.scratch = small;
    a.scratch_size = sizeof(small);
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    int64_t untouched = 0;
    for (int64_t i = 0; i < p.M * b.ldc; ++i)
        untouched += C[i] == C_PAD_SENTINEL;
    CHECK(untouched == p.M * b.ldc);
    /* Empty products are fine and touch nothing; K == 0 reads no A/B. */
    a = good;
    a.M = 0;
    a.A = NULL;
    CHECK(tsr_gemm_s8(&a) == tsr_success);
    a = good;
    a.K = 0;
    a.A = NULL;
    a.B = NULL;
    CHECK(tsr_gemm_s8(&a) == tsr_success && C[0] == 0);
    free(C);
    free_buffers(&b);
}

/* Pair sums at the largest magnitude the quad kernel may take (128) and
 * one past it, across cache blocks, every transposition and A type: with
 * one wide pair its B block runs on the fallback, the others do not. */
static void test_narrow_edges(const tsr_gemm_s8_kernel_t *kern) {
    const int64_t dims[][3] = {
            {kern->mr + 1, kern->nr + 3, 2 * kern->kc + 6},
            {2 * kern->mc + 5, 2 * kern->nc + 37, 70},
            {3, 2 * kern->nr + 1, 4097},
    };
    static const fill_t fills[] = {fill_narrow_edge, fill_one_wide};
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); ++i)
        for (size_t f = 0; f < 2; ++f)
            for (int t = 0; t < 8; ++t) {
                const problem_t p = {t & 1,
                                     (t >> 1) & 1,
                                     t & 4 ? tsr_s8 : tsr_u8,
                                     dims[i][0],
                                     dims[i][1],
                                     dims[i][2],
                                     1,
                                     0,
                                     2,
                                     t % 2,
                                     fills[f]};
                run_problem(&p);
            }
}

/* The taps form against the reference on u8 A and narrow prepacked B,
 * with the caller's C and with C in scratch; where the kernel takes no
 * taps, the call is refused. */
static void run_taps_dt(tsr_data_type_t a_dt, int64_t M, int64_t N,
                        int64_t ntaps, int64_t k_tap, int with_offset) {
    const problem_t p = {0, 0, a_dt, M,           N,          ntaps * k_tap,
                         0, 0, 0,    with_offset, fill_narrow};
    buffers_t b = make_buffers(&p);
    uint8_t *zeros = calloc((size_t)k_tap, 1);
    /* s8 rows are shifted over all of K: every tap listed. */
    const int s8 = a_dt == tsr_s8;
    const taps_ctx_t ctx = {
            (const char *)b.A, b.lda, k_tap, ntaps, zeros, s8, 0};
    for (int64_t m = 0; m < M; ++m)
        for (int64_t t = 0; t < ntaps; ++t)
            if (tap_in_padding(&ctx, m, t))
                memset(b.A + m * b.lda + t * k_tap, 0, (size_t)k_tap);
    compute_ref(&b);
    const tsr_gemm_taps_t taps = {ntaps, k_tap, list_taps, &ctx, NULL};
    int64_t bytes = 0;
    int8_t *packed = prepack_b(&b, &bytes);
    int32_t *sums = malloc(sizeof(int32_t) * (size_t)(N + 1));
    tsr_gemm_s8_col_sums(0, p.K, N, b.B, b.ldb, NULL, 1, sums);
    int32_t *C = new_c(&b);
    tsr_gemm_s8_args_t args = make_args(&b, C);
    args.A = NULL; /* unused */
    args.a_taps = &taps;
    args.B = packed;
    args.b_prepacked = 1;
    args.b_col_sums = s8 ? sums : NULL;
    if (!tsr_gemm_s8_taps_supported(ntaps, k_tap) || !packed ||
        !tsr_gemm_s8_prepacked_fits(packed, bytes) ||
        (s8 && !tsr_gemm_s8_taps_s8_supported())) {
        if (packed)
            CHECK(tsr_gemm_s8(&args) == tsr_invalid_arguments);
    } else {
        if (CHECK(tsr_gemm_s8(&args) == tsr_success))
            check_c(&b, C, b.ldc, "A by taps");
        check_in_scratch(&b, args, "A by taps, C in scratch");
    }
    if (s8 && packed && tsr_gemm_s8_taps_s8_supported()) {
        args.b_col_sums = NULL; /* required with s8 A */
        CHECK(tsr_gemm_s8(&args) == tsr_invalid_arguments);
    }
    free(C);
    free(sums);
    free(packed);
    free(zeros);
    free_buffers(&b);
}

static void run_taps(int64_t M, int64_t N, int64_t ntaps, int64_t k_tap,
                     int with_offset) {
    run_taps_dt(tsr_u8, M, N, ntaps, k_tap, with_offset);
    run_taps_dt(tsr_s8, M, N, ntaps, k_tap, with_offset);
}

static void test_taps(void) {
    run_taps(1, 1, 1, 4, 0);
    run_taps(7, 17, 9, 8, 1);
    run_taps(13, 33, 3, 64, 0);
    run_taps(100, 40, 25, 12, 1); /* more rows than one cache block */
    run_taps(200, 16, 2, 16, 0);
    run_taps(9, 20, 5, 4, 0);  /* a tile of 3 rows */
    run_taps(11, 16, 4, 8, 1); /* a tile of 5 rows */
    run_taps(6, 16, TSR_GEMM_MAX_TAPS, 4, 1);

    /* Refused: s8 A, B not prepacked, K not ntaps * k_tap, k_tap not a
     * multiple of 4, more taps than listed per call. */
    const problem_t p = {0, 0, tsr_u8, 4, 5, 8, 0, 0, 0, 0, fill_narrow};
    buffers_t b = make_buffers(&p);
    int32_t *C = new_c(&b);
    int64_t bytes = 0;
    int8_t *packed = prepack_b(&b, &bytes);
    const taps_ctx_t ctx = {(const char *)b.A, b.lda, 4, 2, b.A, 0, 0};
    tsr_gemm_taps_t taps = {2, 4, list_taps, &ctx, NULL};
    tsr_gemm_s8_args_t good = make_args(&b, C), a;
    good.a_taps = &taps;
    good.B = packed;
    good.b_prepacked = 1;
    a = good;
    a.a_dt = tsr_s8;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.b_prepacked = 0;
    a.B = b.B;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.K = 12;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    taps.ntaps = 4;
    taps.k_tap = 2;
    CHECK(tsr_gemm_s8(&good) == tsr_invalid_arguments);
    taps.ntaps = TSR_GEMM_MAX_TAPS * 2;
    taps.k_tap = 4;
    good.K = taps.ntaps * 4;
    CHECK(tsr_gemm_s8(&good) == tsr_invalid_arguments);
    CHECK(!tsr_gemm_s8_taps_supported(TSR_GEMM_MAX_TAPS + 1, 4));
    free(packed);
    free(C);
    free_buffers(&b);
}

/* A by tap offsets against the reference: rows `step` bytes apart in one
 * buffer, tap t at offset off[t] (taps overlapping rows, as in a window),
 * B plain and prepacked, C given, in scratch, and stored into dst with
 * row_off where every third row is -1 (not stored by the kernels: those
 * dst rows stay untouched, and the callback still gets them). Where the
 * kernel takes no tap offsets, the call is refused. */
static void run_tap_offs_dt(tsr_data_type_t a_dt, int64_t M, int64_t N,
                            int64_t ntaps, int64_t k_tap) {
    const problem_t p = {0, 0, a_dt, M, N,          ntaps * k_tap,
                         0, 0, 0,    1, fill_random};
    buffers_t b = make_buffers(&p);
    const int64_t step = k_tap + 4;
    int64_t off[TSR_GEMM_MAX_TAPS];
    for (int64_t t = 0; t < ntaps; ++t)
        off[t] = t * (3 * step + 8);
    const int64_t win_bytes = (M - 1) * step + off[ntaps - 1] + k_tap;
    uint8_t *win = malloc((size_t)win_bytes);
    for (int64_t i = 0; i < win_bytes; ++i)
        win[i] = a_value(a_dt, fill_random);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t t = 0; t < ntaps; ++t)
            memcpy(b.A + m * b.lda + t * k_tap, win + m * step + off[t],
                   (size_t)k_tap);
    compute_ref(&b);
    const tsr_gemm_s8_tap_offs_t to = {ntaps, k_tap, off};
    int32_t *C = new_c(&b);
    tsr_gemm_s8_args_t args = make_args(&b, C);
    args.A = win;
    args.lda = step;
    args.a_tap_offs = &to;
    if (!tsr_gemm_s8_tap_offs_supported(ntaps, k_tap)) {
        CHECK(tsr_gemm_s8(&args) == tsr_invalid_arguments);
        free(C);
        free(win);
        free_buffers(&b);
        return;
    }
    if (CHECK(tsr_gemm_s8(&args) == tsr_success))
        check_c(&b, C, b.ldc, "A by tap offsets");
    check_in_scratch(&b, args, "A by tap offsets, C in scratch");
    int64_t bytes = 0;
    int8_t *packed = prepack_b(&b, &bytes);
    int32_t *sums = malloc(sizeof(int32_t) * (size_t)(N + 1));
    tsr_gemm_s8_col_sums(0, p.K, N, b.B, b.ldb, NULL, 1, sums);
    if (packed) {
        tsr_gemm_s8_args_t pa = args;
        pa.B = packed;
        pa.b_prepacked = 1;
        pa.b_col_sums = sums;
        for (int64_t i = 0; i < M * b.ldc; ++i)
            C[i] = C_PAD_SENTINEL;
        if (CHECK(tsr_gemm_s8(&pa) == tsr_success))
            check_c(&b, C, b.ldc, "A by tap offsets, prepacked B");
    }

    /* dst_store with row_off: the plain f32 form. */
    tsr_epilogue_fused_plan_t plan;
    memset(&plan, 0, sizeof(plan));
    plan.ok = 1;
    tsr_epilogue_common_t cs;
    memset(&cs, 0, sizeof(cs));
    cs.f.plan = &plan;
    const int form =
            tsr_epilogue_common_form(&plan, tsr_f32, tsr_round_nearest);
    if (CHECK(form > 0)) {
        tsr_epilogue_common_kernels(&cs, tsr_f32, form);
        const float untouched = -12345.f;
        float *dst = malloc(sizeof(float) * (size_t)(M * N + 1));
        int64_t *row_off = malloc(sizeof(int64_t) * (size_t)M);
        for (int64_t i = 0; i < M * N; ++i)
            dst[i] = untouched;
        for (int64_t m = 0; m < M; ++m)
            row_off[m] = m % 3 == 1 ? -1 : m * N;
        const tsr_gemm_s8_dst_t ds = {&cs, dst, N, row_off};
        collect_t ctx;
        const tsr_gemm_s8_args_t da = collecting_args(&b, args, &ds, &ctx);
        const int32_t *out = ctx.out;
        const int *visits = ctx.visits;
        int64_t bad = 0;
        if (CHECK(tsr_gemm_s8(&da) == tsr_success))
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                    const float ref = (float)b.ref[m * N + n];
                    const int seen = visits[m * b.ldc + n];
                    /* Each element once: by the kernel (dst), or by the
                     * callback; rows not stored stay untouched in dst. */
                    if (seen)
                        bad += seen != 1 ||
                               out[m * b.ldc + n] != b.ref[m * N + n] ||
                               dst[m * N + n] != untouched;
                    else
                        bad += m % 3 == 1 ? dst[m * N + n] != untouched
                                          : dst[m * N + n] != ref;
                }
        if (!CHECK(bad == 0)) {
            printf("  A by tap offsets, dst rows: %lld wrong elements\n",
                   (long long)bad);
            describe(&p);
        }
        free(ctx.visits);
        free(ctx.out);
        free(row_off);
        free(dst);
    }
    free(sums);
    free(packed);
    free(C);
    free(win);
    free_buffers(&b);
}

static void test_tap_offs(void) {
    static const tsr_data_type_t dts[] = {tsr_u8, tsr_s8};
    for (int d = 0; d < 2; ++d) {
        run_tap_offs_dt(dts[d], 1, 1, 1, 4);
        run_tap_offs_dt(dts[d], 17, 33, 9, 64);  /* half tiles, a tail panel */
        run_tap_offs_dt(dts[d], 70, 64, 3, 128); /* tiles of 32, 32 and 6 */
        run_tap_offs_dt(dts[d], 45, 40, 5, 68);  /* a K tail in each tap */
        run_tap_offs_dt(dts[d], 50, 64, 25, 48); /* taps of one short step */
        run_tap_offs_dt(dts[d], 40, 32, 7, 28);
        run_tap_offs_dt(dts[d], 36, 40, 3, 96);  /* two steps of 12 quads */
        run_tap_offs_dt(dts[d], 300, 96, 4, 64); /* several cache blocks */
        run_tap_offs_dt(dts[d], 33, 32, TSR_GEMM_MAX_TAPS, 8);
    }
    /* Refused: with taps as well, transposed, K not ntaps * k_tap, k_tap
     * not a multiple of 4, more taps than a call takes. */
    const problem_t p = {0, 0, tsr_u8, 4, 4, 8, 0, 0, 0, 0, fill_random};
    buffers_t b = make_buffers(&p);
    int64_t off[2] = {0, 4};
    tsr_gemm_s8_tap_offs_t to = {2, 4, off};
    int32_t *C = new_c(&b);
    tsr_gemm_s8_args_t good = make_args(&b, C);
    good.a_tap_offs = &to;
    const tsr_gemm_taps_t taps = {2, 4, list_taps, NULL, NULL};
    tsr_gemm_s8_args_t a = good;
    a.a_taps = &taps;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.transa = 1;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    a = good;
    a.K = 12;
    CHECK(tsr_gemm_s8(&a) == tsr_invalid_arguments);
    to.k_tap = 2;
    good.K = 4;
    CHECK(tsr_gemm_s8(&good) == tsr_invalid_arguments);
    to.k_tap = 4;
    to.ntaps = TSR_GEMM_MAX_TAPS + 1;
    good.K = to.ntaps * 4;
    CHECK(tsr_gemm_s8(&good) == tsr_invalid_arguments);
    CHECK(!tsr_gemm_s8_tap_offs_supported(TSR_GEMM_MAX_TAPS + 1, 4));
    CHECK(!tsr_gemm_s8_tap_offs_supported(2, 6));
    free(C);
    free_buffers(&b);
}

/* The precondition check of a kernel that has one, on packed bytes: pairs
 * (2i, 2i + 1) with |b0| + |b1| <= 128 pass, one pair over fails it,
 * wherever it sits (vector blocks and the tail). */
static void test_b_fits(const tsr_gemm_s8_kernel_t *kern) {
    if (!kern->b_fits)
        return;
    enum { bytes = 1000 };
    int8_t b[bytes];
    for (int i = 0; i < bytes; i += 2) {
        static const int8_t edge[][2] = {{-128, 0},  {0, -128}, {64, -64},
                                         {-64, -64}, {127, 1},  {-1, -127},
                                         {100, 28},  {0, 0}};
        b[i] = edge[(i / 2) % 8][0];
        b[i + 1] = edge[(i / 2) % 8][1];
    }
    CHECK(kern->b_fits(b, bytes) == 1);
    static const int at[] = {0, 254, 256, 510, 998};
    static const int8_t over[][2] = {{-128, 1}, {-128, -1}, {65, 64}, {127, 2}};
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); ++i)
        for (size_t v = 0; v < sizeof(over) / sizeof(over[0]); ++v) {
            int8_t c[bytes];
            memcpy(c, b, sizeof(c));
            c[at[i]] = over[v][0];
            c[at[i] + 1] = over[v][1];
            CHECK(kern->b_fits(c, bytes) == 0);
        }
}

int main(void) {
    const tsr_gemm_s8_kernel_t *kern = tsr_gemm_s8_select_kernel();
    printf("kernel %s (%dx%d, mc %lld kc %lld)\n", tsr_gemm_s8_kernel_name(),
           kern->mr, kern->nr, (long long)kern->mc, (long long)kern->kc);
    CHECK(strcmp(kern->name, tsr_gemm_s8_kernel_name()) == 0);
    test_col_sums();
    test_invalid();
    test_b_fits(kern);
    test_tails(kern, fill_random);
    test_tails(kern, fill_narrow);
    test_blocks(kern, fill_random);
    test_blocks(kern, fill_narrow);
    test_narrow_edges(kern);
    test_extremes(kern);
    test_threads();
    test_keep_tiles();
    test_taps();
    test_tap_offs();
    return check_failures() != 0;
}
