/* The work of the GEMM convolutions (gemm:f32, gemm:s8): items of (image
 * n, group g, chunk of spatial points), their planning and their run,
 * shared by both data-type families. */
#include <omp.h>

#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"

/* Items per thread above which threads take whole items. */
#define ITEMS_PER_THREAD 4
#define MIN_CHUNK_SP 64
/* Fewest spatial points of an item cut finer for the threads: below it the
 * threads share one GEMM instead (each would pack all the weights). */
#define MIN_SPLIT_SP 192

void gemm_conv_plan_items(gemm_conv_conf_t *cf, size_t col_point_bytes,
                          size_t col_chunk_bytes, int split_for_threads) {
    cf->nthr = omp_get_max_threads();
    if (cf->direct) {
        cf->chunk_sp = cf->SP;
    } else {
        tsr_dim_t rows = (tsr_dim_t)(col_chunk_bytes / col_point_bytes);
        rows = rows < MIN_CHUNK_SP ? MIN_CHUNK_SP : rows;
        cf->chunk_sp = rows < cf->SP ? rows : cf->SP;
    }
    if (cf->chunk_sp < 1)
        cf->chunk_sp = 1;
    const tsr_dim_t images = cf->sh.MB * cf->sh.G;
    tsr_dim_t chunks = tsr_div_up(cf->SP, cf->chunk_sp);
    cf->per_thread_items =
            cf->nthr > 1 &&
            images * chunks >= (tsr_dim_t)ITEMS_PER_THREAD * cf->nthr;
    if (split_for_threads && !cf->per_thread_items && cf->nthr > 1) {
        /* The next chunk count giving every thread as many items. */
        while ((images * chunks) % cf->nthr)
            chunks++;
        const tsr_dim_t rows = tsr_div_up(cf->SP, chunks);
        if (rows >= MIN_SPLIT_SP) {
            cf->chunk_sp = rows;
            cf->per_thread_items = 1;
        }
    }
}

tsr_dim_t gemm_conv_items(const gemm_conv_conf_t *cf) {
    return cf->sh.MB * cf->sh.G * tsr_div_up(cf->SP, cf->chunk_sp);
}

gemm_conv_item_t gemm_conv_item_at(const gemm_conv_conf_t *cf, tsr_dim_t item) {
    const tsr_dim_t chunks = tsr_div_up(cf->SP, cf->chunk_sp);
    gemm_conv_item_t it;
    it.g = (item / chunks) % cf->sh.G;
    it.n = item / (chunks * cf->sh.G);
    it.sp0 = (item % chunks) * cf->chunk_sp;
    it.len = cf->SP - it.sp0 < cf->chunk_sp ? cf->SP - it.sp0 : cf->chunk_sp;
    return it;
}

void gemm_conv_gather(const gemm_conv_conf_t *cf, const void *src, size_t esize,
                      const void *pad, const gemm_conv_item_t *it, int team,
                      void *col) {
    if (team) {
#pragma omp parallel
        gemm_conv_im2col_elems(cf, src, esize, pad, it->n, it->g, it->sp0,
                               it->len, omp_get_thread_num(),
                               omp_get_num_threads(), col);
    } else {
        gemm_conv_im2col_elems(cf, src, esize, pad, it->n, it->g, it->sp0,
                               it->len, 0, 1, col);
    }
}

tsr_status_t gemm_conv_run_items(const gemm_conv_conf_t *cf,
                                 gemm_conv_item_fn run_item, const void *ctx) {
    const tsr_dim_t items = gemm_conv_items(cf);
    tsr_status_t st = tsr_success;
    if (cf->per_thread_items) {
#pragma omp parallel num_threads(cf->nthr)
        {
            const int ithr = omp_get_thread_num();
#pragma omp for schedule(static)
            for (tsr_dim_t i = 0; i < items; i++) {
                const tsr_status_t s = run_item(ctx, ithr, i, 0);
                if (s != tsr_success) {
#pragma omp critical
                    st = s;
                }
            }
        }
    } else {
        for (tsr_dim_t i = 0; i < items && st == tsr_success; i++)
            st = run_item(ctx, 0, i, 1);
    }
    return st;
}
