/* The library's f32 GEMM engine (row-major):
 *
 *   C := alpha * op(A) * op(B) + beta * C  [+ bias]  [then epilogue]
 *
 * op(A) is M x K, op(B) is K x N, C is M x N. op(X) = X, or X^T when the
 * matching trans flag is set (A then stored K x M, B stored N x K).
 * Convolution, inner product and matmul implementations build on it.
 *
 * Results are deterministic: each element of C sums its K products in the
 * same order whatever the thread count or the caller's thread team (only M
 * and N are split between threads). */
#ifndef TSR_CPU_GEMM_GEMM_F32_H
#define TSR_CPU_GEMM_GEMM_F32_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/gemm/gemm_taps.h"
#include "tessera.h"

typedef enum {
    tsr_gemm_bias_none = 0,
    tsr_gemm_bias_per_row, /* C[i][j] += bias[i], bias has M entries */
    tsr_gemm_bias_per_col, /* C[i][j] += bias[j], bias has N entries */
} tsr_gemm_bias_kind_t;

/* Post-processing of one finished tile of C, called while the tile is still
 * in cache: `c` points at C[m0][n0], the tile is m rows x n columns with row
 * stride ldc. Every element of C is passed exactly once, after alpha, beta
 * and bias are applied. Tiles go to the callback from several threads at
 * once (never the same element twice), so it must be thread-safe. */
typedef void (*tsr_gemm_epilogue_fn)(const void *ctx, float *c, int64_t ldc,
                                     int64_t m0, int64_t n0, int64_t m,
                                     int64_t n);

typedef struct {
    int transa, transb; /* 0: as stored; 1: transposed */
    int64_t M, N, K;
    float alpha;
    const float *A;
    int64_t lda; /* >= K (>= M when transa) */
    /* 1: A comes from memory, not the caches (a big source read once):
     * the rows tiles read in place are fetched a few tiles ahead. */
    int a_streamed;
    const float *B;
    int64_t ldb; /* >= N (>= K when transb) */
    /* 1: B is prepacked for the current kernel (tsr_gemm_f32_prepacked_nr);
     * transb and ldb are then ignored. */
    int b_prepacked;
    /* Optional hint, never read: the B of the call the calling thread
     * likely makes next, of the same shape and strides. The last block of
     * B packed here fetches that B's first block, so the next call's
     * first pack does not wait on memory (a 1x1 convolution's next image). */
    const float *b_next;
    /* Non-NULL: A given by taps instead (gemm_taps.h; A, lda and transa
     * unused), with B prepacked and tsr_gemm_f32_taps_supported(ntaps,
     * k_tap). Each element of C then sums its K products in one pass, in
     * K order, with the taps left out adding nothing. */
    const tsr_gemm_taps_t *a_taps;
    /* beta == 0 means C is write-only: its old contents (even NaN) are
     * never read. */
    float beta;
    float *C;
    int64_t ldc; /* >= N */
    /* With a_taps only, optional: row m of C at C + c_row_off[m] (M
     * entries) instead of C + m * ldc; the epilogue then gets such rows
     * one at a time. */
    const int64_t *c_row_off;

    /* Optional fused epilogue. alpha == 0 or K == 0 leave A and B unread. */
    tsr_gemm_bias_kind_t bias_kind;
    const float *bias;
    tsr_gemm_epilogue_fn epilogue; /* NULL: none */
    const void *epilogue_ctx;

    /* Packing buffers: NULL lets the GEMM allocate (and free) them itself;
     * otherwise scratch_size bytes, best tsr_gemm_f32_scratch_size(M, N, K,
     * nthr) with nthr the threads that share this call (team_nthr, or
     * omp_get_max_threads() when team_nthr is 0). A smaller buffer makes the
     * GEMM use fewer threads, or fail when one thread's share does not fit.
     * 64-byte alignment is recommended, not required. */
    void *scratch;
    size_t scratch_size;

    /* Threading. team_nthr == 0: the GEMM runs its own OpenMP region over
     * up to omp_get_max_threads() threads (one thread when called from
     * inside an active parallel region). team_nthr >= 1: the caller is
     * already in a parallel region and team_nthr of its threads make this
     * same call, each with its own team_ithr in [0, team_nthr); each
     * computes its share of C with no barrier and uses slice team_ithr of
     * `scratch`. A convolution running a small GEMM per thread passes
     * team_nthr = 1, team_ithr = 0 and that thread's own scratch. */
    int team_nthr;
    int team_ithr;
} tsr_gemm_f32_args_t;

/* Runs the GEMM. Returns tsr_invalid_arguments (C untouched) on negative
 * dims, leading dimensions too small, NULL buffers that would be read or
 * written, a team index out of range or scratch too small for one thread
 * (for a caller's team: for all of it); tsr_out_of_memory when scratch is
 * NULL and allocation fails (in a caller's team, the other threads' shares
 * may be done). */
tsr_status_t tsr_gemm_f32(const tsr_gemm_f32_args_t *args);

/* Bytes of scratch a call with these sizes needs for `nthr` threads, for
 * whichever kernel the CPU selects (0 when nothing is packed). */
size_t tsr_gemm_f32_scratch_size(int64_t M, int64_t N, int64_t K, int nthr);

/* Prepacked B, the layout the kernel reads, so that weights laid out
 * once (by the reorder into a convolution's weights) are never packed
 * again: panels of nr consecutive columns (the last one padded with zero
 * columns), each K rows of nr values, so that element (k, n) is at
 * B[(n / nr) * K * nr + k * nr + n % nr]. The nr of the current kernel; a
 * memory format with these panels is OhwI<nr>o over a K of (kh, kw, ic). */
int tsr_gemm_f32_prepacked_nr(void);

/* 1 when the kernel the CPU selects takes A by taps of this shape
 * (tsr_gemm_f32_args_t.a_taps); its scratch is tsr_gemm_f32_scratch_size's. */
int tsr_gemm_f32_taps_supported(int64_t ntaps, int64_t k_tap);

/* The rows of one tile of the kernel the CPU selects: with A by taps,
 * the tiles of which all rows read a tap in the padding leave it out. */
int tsr_gemm_f32_taps_row_tile(void);

/* 1 when the kernel the CPU selects runs the `rows` GEMM rows, row i
 * reading the taps row_taps[i] (bits), at least TSR_GEMM_F32_TAPS_CUT_GAIN
 * percent faster in row tiles cut to the taps their rows read than in
 * tiles of its full height; a caller then gives tsr_gemm_taps_t.row_taps.
 * The rows of one image (or of the run of images a point order spans),
 * in GEMM row order, stand for all. */
#define TSR_GEMM_F32_TAPS_CUT_GAIN 4
int tsr_gemm_f32_taps_cut_pays(const uint64_t *row_taps, int64_t rows);

/* 1 when the kernel the CPU selects multiplies A by taps in taller tiles
 * than A in rows: rows read in place then go faster as one tap each. */
int tsr_gemm_f32_taps_taller(void);

/* Columns of the widest tile of A rows read in place on this CPU: two B
 * panels where the kernel takes them at once (ukr_wide), else one. */
int tsr_gemm_f32_wide_tile_cols(void);

/* Name of the micro-kernel tsr_gemm_f32 uses on this CPU, e.g.
 * "avx2:6x16" (for verbose output and tests). */
const char *tsr_gemm_f32_kernel_name(void);

#endif
