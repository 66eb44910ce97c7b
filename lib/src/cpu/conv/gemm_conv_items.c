/* The work of the GEMM convolutions (gemm:f32, gemm:s8): items of (image
 * n, group g, chunk of spatial points), their planning and their run,
 * shared by both data-type families. */
#include <omp.h>
#include <string.h>

#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"

/* Items per thread above which threads take whole items. */
#define ITEMS_PER_THREAD 4
#define MIN_CHUNK_SP 64
/* Images with fewer points are batched when the rows may run on across
 * images: each GEMM then packs the weights once for several images. */
#define BATCH_MAX_SP 1024
#define BATCH_COL_GROWTH 4
/* Rows of a direct (1x1) chunk: enough that packing the weights costs
 * little, few enough that the GEMM's C stays near the caches. */
#define BATCH_DIRECT_ROWS 2048

/* Rows of all images of one group, the GEMM rows under batch_rows. */
static tsr_dim_t batch_row_count(const gemm_conv_conf_t *cf) {
    return cf->sh.MB * cf->SP;
}

/* Batched rows: chunks of at most `rows` (BATCH_DIRECT_ROWS when direct),
 * their count rounded up so that every thread gets as many, when they stay
 * big enough to pay for their own weights packing; else one chunk at a
 * time over all threads. Each chunk packs all K x OCg weights: a chunk of
 * up to OCg rows (a col up to BATCH_COL_GROWTH times the target) keeps
 * that no bigger than its col. */
static void plan_batched(gemm_conv_conf_t *cf, tsr_dim_t rows) {
    const tsr_dim_t R = batch_row_count(cf), G = cf->sh.G;
    const tsr_dim_t wide = cf->sh.OCg < BATCH_COL_GROWTH * rows
                                   ? cf->sh.OCg
                                   : BATCH_COL_GROWTH * rows;
    if (rows < wide)
        rows = wide;
    tsr_dim_t chunks = tsr_div_up(R, cf->direct ? BATCH_DIRECT_ROWS : rows);
    cf->chunk_sp = tsr_div_up(R, chunks);
    cf->per_thread_items = 0;
    if (cf->nthr == 1)
        return;
    tsr_dim_t split = chunks;
    while ((G * split) % cf->nthr)
        split++;
    const tsr_dim_t split_rows = tsr_div_up(R, split);
    if (split_rows >= GEMM_CONV_MIN_SPLIT_SP ||
        G * split >= (tsr_dim_t)ITEMS_PER_THREAD * cf->nthr) {
        cf->chunk_sp = split_rows;
        cf->per_thread_items = 1;
    }
}

void gemm_conv_plan_items(gemm_conv_conf_t *cf, size_t col_point_bytes,
                          size_t col_chunk_bytes, tsr_dim_t min_split_sp) {
    if (cf->nthr < 1) /* unless the caller plans for fewer */
        cf->nthr = omp_get_max_threads();
    tsr_dim_t rows = (tsr_dim_t)(col_chunk_bytes / col_point_bytes);
    rows = rows < MIN_CHUNK_SP ? MIN_CHUNK_SP : rows;
    cf->batch_rows = cf->sh.MB > 1 && cf->SP > 0 && cf->SP < BATCH_MAX_SP &&
                     gemm_conv_rows_batchable(cf);
    if (cf->batch_rows) {
        plan_batched(cf, rows);
        return;
    }
    cf->chunk_sp = cf->direct || rows > cf->SP ? cf->SP : rows;
    if (cf->chunk_sp < 1)
        cf->chunk_sp = 1;
    const tsr_dim_t images = cf->sh.MB * cf->sh.G;
    tsr_dim_t chunks = tsr_div_up(cf->SP, cf->chunk_sp);
    cf->per_thread_items =
            cf->nthr > 1 &&
            images * chunks >= (tsr_dim_t)ITEMS_PER_THREAD * cf->nthr;
    if (min_split_sp > 0 && !cf->per_thread_items && cf->nthr > 1) {
        /* The next chunk count giving every thread as many items. */
        while ((images * chunks) % cf->nthr)
            chunks++;
        const tsr_dim_t split_rows = tsr_div_up(cf->SP, chunks);
        if (split_rows >= min_split_sp) {
            cf->chunk_sp = split_rows;
            cf->per_thread_items = 1;
        }
    }
}

tsr_dim_t gemm_conv_items(const gemm_conv_conf_t *cf) {
    if (cf->batch_rows)
        return cf->sh.G * tsr_div_up(batch_row_count(cf), cf->chunk_sp);
    return cf->sh.MB * cf->sh.G * tsr_div_up(cf->SP, cf->chunk_sp);
}

gemm_conv_item_t gemm_conv_item_at(const gemm_conv_conf_t *cf, tsr_dim_t item) {
    gemm_conv_item_t it;
    if (cf->batch_rows) {
        /* Group outer: consecutive items share their weights. */
        const tsr_dim_t R = batch_row_count(cf);
        const tsr_dim_t chunks = tsr_div_up(R, cf->chunk_sp);
        const tsr_dim_t r0 = (item % chunks) * cf->chunk_sp;
        it.g = item / chunks;
        it.n = r0 / cf->SP;
        it.sp0 = r0 % cf->SP;
        it.len = R - r0 < cf->chunk_sp ? R - r0 : cf->chunk_sp;
        return it;
    }
    const tsr_dim_t chunks = tsr_div_up(cf->SP, cf->chunk_sp);
    it.g = (item / chunks) % cf->sh.G;
    it.n = item / (chunks * cf->sh.G);
    it.sp0 = (item % chunks) * cf->chunk_sp;
    it.len = cf->SP - it.sp0 < cf->chunk_sp ? cf->SP - it.sp0 : cf->chunk_sp;
    return it;
}

/* The rows from r on (of m) that the epilogue takes in one call, and the
 * position and dst offset of the first: the segment's length. Rows the
 * epilogue does not tell apart go together (up to the image's end unless
 * images are alike too), with any spatial coordinates in pos (0 saves
 * finding the real ones); otherwise one row. */
static int64_t row_segment(const gemm_conv_conf_t *cf, tsr_dim_t n,
                           tsr_dim_t sp0, tsr_dim_t oc, int64_t r, int64_t m,
                           tsr_dim_t *pos, int64_t *dst_off) {
    const tsr_dim_t img = n + (sp0 + r) / cf->SP, sp = (sp0 + r) % cf->SP;
    *dst_off = gemm_conv_dst_offset(cf, img, oc, sp);
    if (!cf->ep_uniform_sp) {
        gemm_conv_dst_point(cf, img, oc, sp, pos);
        return 1;
    }
    int64_t seg = m - r;
    if (!cf->ep_uniform_n && seg > cf->SP - sp)
        seg = cf->SP - sp;
    memset(pos, 0, sizeof(tsr_dim_t) * TSR_MAX_NDIMS);
    pos[0] = img;
    pos[1] = oc;
    return seg;
}

void gemm_conv_store_rows(const gemm_conv_conf_t *cf,
                          const tsr_epilogue_rt_t *rt, float *acc,
                          int64_t acc_ld, tsr_dim_t n, tsr_dim_t sp0,
                          tsr_dim_t oc, int64_t m, int64_t ncols, void *dst) {
    tsr_dim_t pos[TSR_MAX_NDIMS];
    int64_t off;
    for (int64_t r = 0, seg; r < m; r += seg) {
        seg = row_segment(cf, n, sp0, oc, r, m, pos, &off);
        tsr_epilogue_apply_rows(&cf->ep, rt, acc + r * acc_ld, acc_ld, seg,
                                ncols, pos, 1, dst, off, cf->dst_sp_step,
                                cf->dst_s[CONV_C]);
    }
}

void gemm_conv_store_cf_rows(const gemm_conv_conf_t *cf,
                             const tsr_epilogue_rt_t *rt, float *acc,
                             int64_t acc_ld, tsr_dim_t n, tsr_dim_t oc,
                             tsr_dim_t sp0, int64_t m, int64_t ncols,
                             void *dst) {
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t r = 0; r < m; r++) {
        float *row = acc + r * acc_ld;
        /* Runs along sp: whole when nothing varies spatially, else split
         * at output rows so each run advances along w only. */
        for (int64_t j = 0; j < ncols;) {
            const tsr_dim_t sp = sp0 + j;
            int64_t run = ncols - j;
            if (!cf->ep_uniform_sp && run > cf->sh.OW - sp % cf->sh.OW)
                run = cf->sh.OW - sp % cf->sh.OW;
            gemm_conv_dst_point(cf, n, oc + r, sp, pos);
            tsr_epilogue_apply_row(&cf->ep, rt, row + j, run, pos,
                                   cf->sh.ndims - 1, dst,
                                   gemm_conv_dst_offset(cf, n, oc + r, sp), 1);
            j += run;
        }
    }
}

void gemm_conv_store_rows_s32(const gemm_conv_conf_t *cf,
                              const tsr_epilogue_rt_t *rt, const int32_t *acc,
                              int64_t acc_ld, tsr_dim_t n, tsr_dim_t sp0,
                              tsr_dim_t oc, int64_t m, int64_t ncols, void *dst,
                              float *work) {
    tsr_dim_t pos[TSR_MAX_NDIMS];
    int64_t off;
    for (int64_t r = 0, seg; r < m; r += seg) {
        seg = row_segment(cf, n, sp0, oc, r, m, pos, &off);
        tsr_epilogue_apply_rows_s32(&cf->ep, rt, acc + r * acc_ld, acc_ld, seg,
                                    ncols, pos, 1, dst, off, cf->dst_sp_step,
                                    cf->dst_s[CONV_C], work);
    }
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
            /* Items go to the thread that is free: threads on cores
             * shared with other work run at different speeds, and every
             * item's arithmetic is the same whichever thread runs it. */
#pragma omp for schedule(dynamic, 1)
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
