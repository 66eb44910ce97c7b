#include "cpu/gemm/gemm_partition.h"

#include <omp.h>

#include "common/checked_math.h"
#include "common/utils.h"

int64_t tsr_gemm_balanced_block(int64_t len, int64_t max_blk, int64_t unit) {
    if (len <= 0)
        return unit;
    const int64_t nblk = tsr_div_up(len, max_blk);
    return tsr_rnd_up(tsr_div_up(len, nblk), unit);
}

/* Share [begin, end) of `ntiles` tiles for part `i` of `nparts`. */
static void split_tiles(int64_t ntiles, int nparts, int i, int64_t *begin,
                        int64_t *end) {
    const int64_t q = ntiles / nparts, r = ntiles % nparts;
    *begin = i * q + TSR_MIN(i, r);
    *end = *begin + q + (i < r);
}

tsr_gemm_rect_t tsr_gemm_thread_rect(int64_t M, int64_t N, int mr, int nr,
                                     int nthr, int ithr) {
    const int64_t mtiles = tsr_div_up(M, mr), ntiles = tsr_div_up(N, nr);
    /* Packing one line costs about as much as a dozen products per K
     * step. */
    const int64_t surface_weight = 12;
    int best_m = 1, best_n = 1;
    int64_t best_cost = INT64_MAX;
    for (int nm = 1; nm <= nthr && nm <= mtiles; ++nm) {
        for (int nn = 1; nm * nn <= nthr && nn <= ntiles; ++nn) {
            const int64_t rows = tsr_div_up(mtiles, nm) * mr;
            const int64_t cols = tsr_div_up(ntiles, nn) * nr;
            const int64_t cost = rows * cols + surface_weight * (rows + cols);
            if (cost < best_cost) {
                best_cost = cost;
                best_m = nm;
                best_n = nn;
            }
        }
    }
    tsr_gemm_rect_t r = {0, 0, 0, 0};
    if (ithr >= best_m * best_n)
        return r;
    int64_t tb, te;
    split_tiles(mtiles, best_m, ithr / best_n, &tb, &te);
    r.m_begin = tb * mr;
    r.m_end = TSR_MIN(te * mr, M);
    split_tiles(ntiles, best_n, ithr % best_n, &tb, &te);
    r.n_begin = tb * nr;
    r.n_end = TSR_MIN(te * nr, N);
    return r;
}

int tsr_gemm_team_valid(int team_nthr, int team_ithr) {
    return team_nthr == 0 ||
           (team_nthr > 0 && team_ithr >= 0 && team_ithr < team_nthr);
}

int tsr_gemm_operands_valid(int transa, int transb, int64_t M, int64_t N,
                            int64_t K, const void *A, int64_t lda,
                            const void *B, int64_t ldb) {
    return A && lda >= TSR_MAX(transa ? M : K, 1) && B &&
           ldb >= TSR_MAX(transb ? K : N, 1);
}

tsr_status_t tsr_gemm_run_threads(const tsr_gemm_threads_t *t) {
    const size_t ws_bytes = t->ws_bytes;
    void *scratch = t->scratch, *own = NULL;

    if (t->team_nthr > 0) {
        /* Judged for the whole team so all its threads agree. */
        size_t team_bytes;
        if (scratch &&
            (!tsr_mul_size(ws_bytes, (size_t)t->team_nthr, &team_bytes) ||
             t->scratch_size < team_bytes))
            return tsr_invalid_arguments;
        void *ws = tsr_gemm_thread_slice(scratch, ws_bytes, t->team_ithr);
        if (!ws && ws_bytes > 0) {
            ws = own = tsr_malloc(ws_bytes);
            if (!own)
                return tsr_out_of_memory;
        }
        t->share(t->ctx, t->team_nthr, t->team_ithr, ws);
        tsr_free(own);
        return tsr_success;
    }

    int nthr = omp_in_parallel() ? 1 : omp_get_max_threads();
    if (t->work / t->min_work_per_thread < nthr)
        nthr = TSR_MAX(1, (int)(t->work / t->min_work_per_thread));
    if (ws_bytes > 0) {
        if (scratch) {
            const size_t fit = t->scratch_size / ws_bytes;
            if (fit == 0)
                return tsr_invalid_arguments;
            nthr = (int)TSR_MIN((size_t)nthr, fit);
        } else {
            size_t bytes;
            if (!tsr_mul_size(ws_bytes, (size_t)nthr, &bytes))
                return tsr_out_of_memory;
            scratch = own = tsr_malloc(bytes);
            if (!own)
                return tsr_out_of_memory;
        }
    }
    if (nthr == 1) {
        t->share(t->ctx, 1, 0, tsr_gemm_thread_slice(scratch, ws_bytes, 0));
    } else {
#pragma omp parallel num_threads(nthr)
        t->share(
                t->ctx, omp_get_num_threads(), omp_get_thread_num(),
                tsr_gemm_thread_slice(scratch, ws_bytes, omp_get_thread_num()));
    }
    tsr_free(own);
    return tsr_success;
}
