/* Blocking and thread partition shared by the GEMM engines (f32, s8): how
 * a dimension is cut into cache blocks and which rectangle of C each
 * thread computes. Both depend only on their arguments; only M and N are
 * ever split between threads, so the K summation order never depends on
 * the thread count. */
#ifndef TSR_CPU_GEMM_GEMM_PARTITION_H
#define TSR_CPU_GEMM_GEMM_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "tessera.h"

/* Splits `len` into the fewest blocks of at most `max_blk`, of equal size
 * rounded up to `unit`. */
int64_t tsr_gemm_balanced_block(int64_t len, int64_t max_blk, int64_t unit);

typedef struct {
    int64_t m_begin, m_end, n_begin, n_end;
} tsr_gemm_rect_t;

/* The rectangle of C that thread ithr of nthr computes: a grid of
 * nthr_m x nthr_n parts of whole mr x nr tiles, chosen to balance the
 * tiles and then to keep each part square (less packing per product).
 * Threads outside the grid get an empty rectangle. */
tsr_gemm_rect_t tsr_gemm_thread_rect(int64_t M, int64_t N, int mr, int nr,
                                     int nthr, int ithr);

/* Part `ithr` of a scratch buffer cut into parts of ws_bytes (NULL when
 * there is no buffer or nothing to pack). */
static inline void *tsr_gemm_thread_slice(void *scratch, size_t ws_bytes,
                                          int ithr) {
    if (!scratch || ws_bytes == 0)
        return NULL;
    return (char *)scratch + ws_bytes * (size_t)ithr;
}

/* The argument checks both engines share: a caller's team index in range
 * (team_nthr 0: the engine's own region), and op(A) (M x K) and op(B)
 * (K x N) present with leading dimensions that hold them (A stored K x M,
 * B N x K when transposed); call it only when the product reads them. */
int tsr_gemm_team_valid(int team_nthr, int team_ithr);
int tsr_gemm_operands_valid(int transa, int transb, int64_t M, int64_t N,
                            int64_t K, const void *A, int64_t lda,
                            const void *B, int64_t ldb);

/* How a GEMM call spreads over threads: `share` computes thread ithr's
 * part of nthr (its tsr_gemm_thread_rect) with `ws`, its own ws_bytes of
 * working memory (NULL only when ws_bytes is 0). */
typedef void (*tsr_gemm_share_fn)(const void *ctx, int nthr, int ithr,
                                  void *ws);
typedef struct {
    const void *ctx;
    tsr_gemm_share_fn share;
    size_t ws_bytes;
    /* Products of the call, and the fewest per thread worth a thread. */
    double work, min_work_per_thread;
    /* The caller's scratch and team, as in the engines' arguments. */
    void *scratch;
    size_t scratch_size;
    int team_nthr, team_ithr;
} tsr_gemm_threads_t;

/* Runs the shares: in the caller's team (team_nthr > 0) this thread's
 * one, else all of them in an OpenMP region (one thread inside an active
 * region, fewer when the work or the scratch is small). Working memory
 * comes from scratch, cut in ws_bytes slices, or is allocated when scratch
 * is NULL. tsr_invalid_arguments when scratch cannot hold one slice (for a
 * team: all of its slices), tsr_out_of_memory when allocation fails. */
tsr_status_t tsr_gemm_run_threads(const tsr_gemm_threads_t *t);

#endif
