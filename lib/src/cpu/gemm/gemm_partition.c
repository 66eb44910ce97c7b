#include "cpu/gemm/gemm_partition.h"

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
