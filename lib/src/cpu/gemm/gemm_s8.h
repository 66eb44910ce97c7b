/* The library's int8 GEMM engine (row-major, exact integer arithmetic):
 *
 *   C_s32[m][n] = col_offset[n] + sum_k op(A)[m][k] * op(B)[k][n]
 *
 * op(A) is M x K of u8 or s8 (a_dt), op(B) is K x N of s8, C is M x N of
 * s32. op(X) = X, or X^T when the matching trans flag is set (A then stored
 * K x M, B stored N x K). Convolution, inner product and matmul build on it:
 * the caller folds a source zero point into the reduction through
 * col_offset = -src_zero_point * colsum(B) (tsr_gemm_s8_col_sums), and
 * applies its f32 epilogue to each finished tile through the callback.
 *
 * Every product and sum is exact on every kernel, for all inputs: sums are
 * taken modulo 2^32 like the hardware's 32-bit adds, so a result wraps only
 * when the true value leaves the s32 range (never for K < 66000). Threads
 * split only M and N, so results never depend on the thread count. */
#ifndef TSR_CPU_GEMM_GEMM_S8_H
#define TSR_CPU_GEMM_GEMM_S8_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/common/epilogue_f32.h"
#include "cpu/gemm/gemm_taps.h"
#include "tessera.h"

/* Post-processing of one finished tile of C, called while it is in cache.
 * `tile` points at C[m0][n0] (the caller's C, or an engine-owned buffer
 * when C is NULL), m rows x n columns with row stride ld; col_offset is
 * already added. f32_work is a per-thread buffer with room for m * n
 * floats the callback may use (e.g. to convert the tile to f32 before
 * tsr_epilogue_apply_rows); its contents are undefined on entry. Every
 * element of C is passed exactly once. Tiles go to the callback from
 * several threads at once (never the same element twice), so it must be
 * thread-safe. */
typedef void (*tsr_gemm_s8_epilogue_fn)(const void *ctx, const int32_t *tile,
                                        int64_t ld, int64_t m0, int64_t n0,
                                        int64_t m, int64_t n, float *f32_work);

/* A given by taps: see gemm_taps.h; for this engine k_tap is a multiple
 * of 4 and the rows are u8, or s8 where tsr_gemm_s8_taps_s8_supported()
 * (with b_col_sums given). s8 rows are shifted by +128 over all of K, so
 * their rows() must list every tap, padding rows pointing at s8 zeros. */

/* C stored straight into dst by the micro-kernels, through the
 * epilogue's common form (see tsr_epilogue_common_t): C[m][n] becomes
 * element m * ld + n of dst, or with row_off (A by taps or tap offsets
 * only) element row_off[m] + n, where row_off[m] >= 0 (a negative one:
 * row m is not stored), of type common->dt, with the operands of column n
 * at common's column n. */
typedef struct {
    const tsr_epilogue_common_t *common;
    void *dst;
    int64_t ld;             /* >= N */
    const int64_t *row_off; /* M entries, or NULL */
} tsr_gemm_s8_dst_t;

/* Zero-initialise, then set what is used: optional fields default to off. */
typedef struct {
    int transa, transb; /* 0: as stored; 1: transposed */
    int64_t M, N, K;
    tsr_data_type_t a_dt; /* tsr_u8 or tsr_s8 */
    const void *A;        /* uint8_t or int8_t per a_dt */
    int64_t lda;          /* >= K (>= M when transa) */
    /* Non-NULL: A given by taps instead (A, lda, transa and
     * a_rows_padded unused), with a_dt u8 (or s8, see above), B prepacked
     * and tsr_gemm_s8_taps_supported(ntaps, k_tap). */
    const tsr_gemm_taps_t *a_taps;
    /* Non-NULL: A by tap offsets from A (lda its row stride, transa 0,
     * a_rows_padded unused), K = ntaps * k_tap, a_dt u8 or s8, where
     * tsr_gemm_s8_tap_offs_supported(ntaps, k_tap). */
    const tsr_gemm_s8_tap_offs_t *a_tap_offs;
    /* 1: every row of an untransposed A has rnd_up(K, 4) readable bytes
     * (lda >= that), so kernels may read whole K quads of it in place;
     * the bytes past K are multiplied by zero weights only. */
    int a_rows_padded;
    const int8_t *B;
    int64_t ldb; /* >= N (>= K when transb) */

    /* C is write-only (never read). NULL is allowed only with an epilogue:
     * the finished tiles then live in the engine's scratch and only the
     * callback sees them (a convolution writing straight to dst). */
    int32_t *C;
    int64_t ldc; /* >= N when C is set */

    /* Optional s32 offset of each column, added to every row (N entries,
     * NULL: none). K == 0 gives C = col_offset. */
    const int32_t *col_offset;

    /* Optional sum_k op(B)[k][n] of each column (N entries, modulo 2^32,
     * e.g. the compensation sums stored with int8 weights), so that the
     * engine need not compute it for the +128 shift of s8 A values some
     * kernels make. NULL: computed when needed. */
    const int32_t *b_col_sums;

    /* 1: B is prepacked for the current kernel (see
     * tsr_gemm_s8_prepacked_nr), its values fit that kernel
     * (tsr_gemm_s8_prepacked_fits) and, with an s8 A, b_col_sums is given;
     * transb and ldb are then ignored. */
    int b_prepacked;

    tsr_gemm_s8_epilogue_fn epilogue; /* NULL: none */
    const void *epilogue_ctx;

    /* Optional, with C NULL and an epilogue: the tiles a kernel can store
     * from its registers (full tiles of A read in place or by taps on the
     * AVX2 quad kernel) go to dst this way, with the separate pass over
     * them saved, and never reach the callback, which gets the rest. The
     * two must agree on every element. */
    const tsr_gemm_s8_dst_t *dst_store;

    /* Packing (and tile) buffers: NULL lets the GEMM allocate (and free)
     * them itself; otherwise scratch_size bytes, best
     * tsr_gemm_s8_scratch_size(M, N, K, C == NULL, nthr) with nthr the
     * threads that share this call (team_nthr, or omp_get_max_threads()
     * when team_nthr is 0). A smaller buffer makes the GEMM use fewer
     * threads, or fail when one thread's share does not fit. 64-byte
     * alignment is recommended, not required. */
    void *scratch;
    size_t scratch_size;

    /* Threading, as tsr_gemm_f32. team_nthr == 0: the GEMM runs its own
     * OpenMP region over up to omp_get_max_threads() threads (one thread
     * when called from inside an active parallel region). team_nthr >= 1:
     * the caller is already in a parallel region and team_nthr of its
     * threads make this same call, each with its own team_ithr in
     * [0, team_nthr); each computes its share of C with no barrier and
     * uses slice team_ithr of `scratch`. A convolution running a small GEMM
     * per thread passes team_nthr = 1, team_ithr = 0 and that thread's own
     * scratch. */
    int team_nthr;
    int team_ithr;
    /* 1: the kernel's register state (AMX tiles) stays set up after the
     * call, for a thread that runs several calls alone (team_nthr == 1)
     * and then calls tsr_gemm_s8_release_tiles: a convolution's GEMM per
     * output row. 0: released by the call. */
    int keep_tiles;
} tsr_gemm_s8_args_t;

/* Runs the GEMM. Returns tsr_invalid_arguments (C untouched, callback not
 * called) on negative dims, a_dt other than u8/s8, leading dimensions too
 * small, NULL buffers that would be read or written (C NULL without an
 * epilogue), a team index out of range or scratch too small for one thread
 * (for a caller's team: for all of it); tsr_out_of_memory when scratch is
 * NULL and allocation fails (in a caller's team, the other threads' shares
 * may be done). */
tsr_status_t tsr_gemm_s8(const tsr_gemm_s8_args_t *args);

/* Releases what calls with keep_tiles kept on this thread (nothing on
 * kernels without such state). */
void tsr_gemm_s8_release_tiles(void);

/* Bytes of scratch a call with these sizes needs for `nthr` threads, for
 * whichever kernel the CPU selects; c_in_scratch is 1 when the call passes
 * C == NULL (the tiles then live in scratch). SIZE_MAX when the sizes
 * overflow (K is not capped by the blocking). */
size_t tsr_gemm_s8_scratch_size(int64_t M, int64_t N, int64_t K,
                                int c_in_scratch, int nthr);

/* 1 when the kernel the CPU selects reads s8 rows of A (not transposed)
 * as it reads u8 ones in place (as they are, or shifted once per block of
 * rows); else they are packed. */
int tsr_gemm_s8_reads_s8_rows(void);

/* The rows of one tile of the kernel the CPU selects: with A by taps,
 * the tiles of which all rows read a tap in the padding leave it out. */
int tsr_gemm_s8_taps_row_tile(void);

/* 1 when the kernel the CPU selects takes A by tap offsets
 * (tsr_gemm_s8_args_t.a_tap_offs) of ntaps taps of k_tap values. */
int tsr_gemm_s8_tap_offs_supported(int64_t ntaps, int64_t k_tap);
/* The bytes of each tap one product step of that kernel takes (64 at
 * best; a tap of fewer, or of no multiple, leaves part of each step
 * idle, a cost the caller may weigh). */
int64_t tsr_gemm_s8_tap_offs_step(int64_t k_tap);

/* 1 when the kernel the CPU selects also takes s8 rows by taps. */
int tsr_gemm_s8_taps_s8_supported(void);

/* 1 when the kernel the CPU selects takes A by taps of this shape
 * (tsr_gemm_s8_args_t.a_taps); its scratch is tsr_gemm_s8_scratch_size's. */
int tsr_gemm_s8_taps_supported(int64_t ntaps, int64_t k_tap);

/* sums[n] = multiplier * sum_k op(B)[k][n] for n < N (modulo 2^32), op(B)
 * K x N as in tsr_gemm_s8_args_t. `known` (NULL: none) holds the plain
 * sums when they are already known (e.g. stored with int8 weights); B is
 * then not read. With multiplier = -src_zero_point it is the col_offset
 * that folds a source zero point into the reduction. */
void tsr_gemm_s8_col_sums(int transb, int64_t K, int64_t N, const int8_t *B,
                          int64_t ldb, const int32_t *known, int32_t multiplier,
                          int32_t *sums);

/* Prepacked B: the layout the quad kernels read, so that weights packed
 * once (by the reorder into a convolution's weights) are never packed
 * again. Panels of nr consecutive columns (the last one padded with zero
 * columns), each over all of K padded with zeros to a multiple of 4, as K
 * quads: panel p starts at B + p * rnd_up(K, 4) * nr, and the values
 * k = 4q .. 4q + 3 of column p * nr + j are the 4 bytes at offset
 * (q * nr + j) * 4 of the panel. tsr_gemm_s8_prepacked_nr is the nr of the
 * current kernel (0: it cannot read prepacked B); a memory format with
 * these panels is OhwI<nr>o4i over a K of (kh, kw, ic). */
int tsr_gemm_s8_prepacked_nr(void);

/* 1 when the current kernel takes these prepacked B values (`bytes` bytes
 * of panels): the quad kernel without multiply-accumulate instructions of
 * its own needs narrow B (see gemm_s8_ukr_6x16_u8s8_avx2.c). */
int tsr_gemm_s8_prepacked_fits(const int8_t *B, int64_t bytes);

/* 1 when the current kernel takes prepacked B whose values are "pair
 * narrow" (every pair at bytes (2j, 2j + 1) has |b0| + |b1| <= 128) and
 * only those; 0 when it takes any. With it, a caller that knows the
 * property (md_extra_pairs_narrow) need not scan the panels. */
int tsr_gemm_s8_prepacked_needs_narrow(void);

/* Name of the micro-kernel tsr_gemm_s8 uses on this CPU, e.g.
 * "avx2:6x16" (for verbose output and tests). */
const char *tsr_gemm_s8_kernel_name(void);

#endif
