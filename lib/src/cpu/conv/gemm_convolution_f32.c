/* "gemm:f32": forward f32 convolution on the GEMM engine, for plain
 * channels-last (nhwc family) and channels-first (nchw family) data and
 * plain weights, with every attribute fused at the store by the shared
 * epilogue. Formulation and K orders in gemm_conv_f32.h.
 *
 * Weights for "any" (channels-last dst) are laid out as the GEMM's packed
 * B panels (gOhwI<nr>o) by the reorder into them, so no execution packs
 * them.
 *
 * Work is a list of items (image n, group g, chunk of spatial points; for
 * small channels-last images chunks run on across images so that one GEMM
 * packs the weights for several). With many items each thread runs whole
 * items with its own single-thread GEMM; with few (e.g. one image) items
 * run one after the other, each spread over all threads by the GEMM. The
 * GEMM sums every element over K in the same order whatever its shape or
 * thread split, so results do not depend on the thread count. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/attr.h"
#include "common/checked_math.h"
#include "common/convolution_pd.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/gemm/gemm_f32.h"

/* im2col chunks are kept near this size so they stay in the caches. */
#define COL_CHUNK_BYTES ((size_t)2048 << 10)
/* A source read in place is streamed from memory beyond this size, half
 * the shared L3 of the 2-core machines measured: the GEMM then fetches its
 * rows ahead (res2a_branch2a mb32, 2 threads: 190 -> 357 GFLOPS; mb1,
 * whose source stays in L3, lost 2-4% to it). */
#define STREAMED_SRC_BYTES ((size_t)16 << 20)

/* Input channels from which a unit 1x1 goes by taps on a kernel with
 * taller tap tiles (see conf_init). */
#define UNIT_1X1_TAPS_MIN_IC 512

static int src_streamed(const gemm_conv_conf_t *cf) {
    return (size_t)(cf->sh.MB * cf->src_s[CONV_N]) * sizeof(float) >
           STREAMED_SRC_BYTES;
}

/* Chunking, threading mode and scratchpad (per thread: col, C buffer, GEMM
 * packing; threads taking whole items each own one such slice). */
static void plan_items(gemm_conv_conf_t *cf) {
    /* Items through col with the weights read in place are cut per thread
     * (GEMM_CONV_MIN_OWN_COL_SPLIT_SP); others keep whole items, shared by
     * the threads when there are few. */
    const int own_col = !cf->direct && !cf->taps_ok && cf->wei_panels;
    gemm_conv_plan_items(cf, (size_t)cf->K * sizeof(float), COL_CHUNK_BYTES,
                         own_col       ? GEMM_CONV_MIN_OWN_COL_SPLIT_SP
                         : cf->taps_ok ? GEMM_CONV_MIN_SPLIT_SP
                                       : 0);
}

/* The shape of the taps the GEMM reads (see plan_work): kernel rows, or
 * kernel points. */
static tsr_gemm_taps_t tap_shape(const gemm_conv_conf_t *cf, int row_taps) {
    const tsr_gemm_taps_t t = {row_taps ? cf->sh.KH : cf->KS,
                               row_taps ? cf->sh.KW * cf->sh.ICg : cf->sh.ICg,
                               NULL, NULL, NULL};
    return t;
}

static int tap_shape_supported(const gemm_conv_conf_t *cf, int row_taps) {
    const tsr_gemm_taps_t t = tap_shape(cf, row_taps);
    return tsr_gemm_f32_taps_supported(t.ntaps, t.k_tap);
}

static void plan_work(gemm_conv_conf_t *cf) {
    plan_items(cf);
    /* Layers with few input channels go by kernel rows where they can
     * (the items planned); else by kernel points, where the kernel takes
     * that many. */
    cf->row_taps = cf->taps_ok && gemm_conv_row_taps_ok(cf) &&
                   tap_shape_supported(cf, 1);
    if (cf->taps_ok && !cf->row_taps && !tap_shape_supported(cf, 0)) {
        cf->taps_ok = 0;
        plan_items(cf);
    }
}

/* The scratchpad of the items planned; 0 when its size overflows. */
static int size_work(gemm_conv_conf_t *cf) {
    /* By taps, col holds only the zero row the padding reads; by kernel
     * rows, the item's window of the source (its size checked by
     * gemm_conv_row_taps_ok). */
    const tsr_dim_t col =
            cf->direct ? 0
            : cf->row_taps
                    ? (tsr_dim_t)gemm_conv_row_window_floats(cf, cf->chunk_sp)
            : cf->taps_ok ? tsr_rnd_up(cf->sh.ICg, 16)
                          : md_mul_elems(cf->chunk_sp, cf->K);
    const tsr_dim_t cbuf = tsr_epilogue_reads_dst(&cf->ep)
                                   ? md_mul_elems(cf->chunk_sp, cf->sh.OCg)
                                   : 0;
    /* With the padding order (see conf_init), the dst offset of each GEMM
     * row. */
    const tsr_dim_t dst_rows_bytes =
            cf->taps_ok && !cf->row_taps
                    ? md_mul_elems(cf->chunk_sp, (tsr_dim_t)sizeof(int64_t))
                    : 0;
    if (col < 0 || cbuf < 0 || dst_rows_bytes < 0)
        return 0;
    const tsr_dim_t col_bytes =
            md_mul_elems(col + cbuf, (tsr_dim_t)sizeof(float));
    if (col_bytes < 0)
        return 0;
    cf->col_floats = (size_t)col;
    cf->cbuf_floats = (size_t)cbuf;
    const int64_t M = cf->dst_cl ? cf->chunk_sp : cf->sh.OCg;
    const int64_t N = cf->dst_cl ? cf->sh.OCg : cf->chunk_sp;
    const int gemm_nthr = cf->per_thread_items ? 1 : cf->nthr;
    cf->gemm_bytes =
            tsr_rnd_up(tsr_gemm_f32_scratch_size(M, N, cf->K, gemm_nthr), 64);
    cf->thread_bytes = tsr_rnd_up(col_bytes, 64) +
                       tsr_rnd_up(dst_rows_bytes, 64) + cf->gemm_bytes;
    return 1;
}

/* Rows up to which the padding order may span several images. */
#define ORDER_MAX_ROWS 2048
/* Items per thread at least, so that threads running at different speeds
 * (cores shared with other work) still even out (gemm_conv_run_items). */
#define ORDER_MIN_ITEMS_PER_THREAD 2

/* The images the padding order spans: with items over several images
 * each thread runs, the most that keep the images whole, the items' count
 * a multiple of the threads' (each thread gets as many of each class of
 * points) and an item's rows within ORDER_MAX_ROWS. Else one image. */
static tsr_dim_t order_images(const gemm_conv_conf_t *cf) {
    if (!cf->batch_rows || !cf->per_thread_items)
        return 1;
    for (tsr_dim_t d = ORDER_MAX_ROWS / cf->SP; d > 1; d--) {
        const tsr_dim_t items = cf->sh.G * (cf->sh.MB / d);
        if (cf->sh.MB % d == 0 && items % cf->nthr == 0 &&
            items >= ORDER_MIN_ITEMS_PER_THREAD * cf->nthr)
            return d;
    }
    return 1;
}

static tsr_status_t staging_init(gemm_conv_conf_t *cf,
                                 struct tsr_primitive_desc *pd);
static void conf_fini(gemm_conv_conf_t *cf);

/* 1 when the GEMM's row tiles cut to the taps their points read pay, by
 * one run of order_rows points in GEMM row order (a 7x7 3x3 layer's
 * image: 13% faster; 14x14 and up: no gain the cost model sees, 1-3%
 * slower measured where it saw one). */
static int taps_cut_pays(const gemm_conv_conf_t *cf) {
    const tsr_dim_t rows = cf->order_rows;
    if (rows > GEMM_CONV_ORDER_MAX_SP)
        return 0;
    uint64_t *taps = malloc(sizeof(*taps) * (size_t)rows);
    if (!taps)
        return 0;
    for (tsr_dim_t q = 0; q < rows; q++)
        taps[q] = gemm_conv_row_point_taps(cf, cf->point_order, q);
    const int pays = tsr_gemm_f32_taps_cut_pays(taps, rows);
    free(taps);
    return pays;
}

/* nthr: the threads to plan for (0: the OpenMP maximum). */
static tsr_status_t conf_init(gemm_conv_conf_t *cf,
                              struct tsr_primitive_desc *pd, int nthr) {
    memset(cf, 0, sizeof(*cf));
    cf->nthr = nthr;
    if (!conv_is_fwd_direct(pd))
        return tsr_unimplemented;
    const struct tsr_primitive_attr *attr = &pd->attr;
    if (attr->zero_points[TSR_QARG_SRC].set ||
        attr->zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC],
                      *wei = &pd->md[TSR_MD_WEIGHTS];
    tsr_memory_desc_t *bia = &pd->md[TSR_MD_BIAS], *dst = &pd->md[TSR_MD_DST];
    const int with_groups = conv_with_groups(pd);
    if (src->data_type != tsr_f32 || wei->data_type != tsr_f32 ||
        dst->data_type != tsr_f32 ||
        (conv_with_bias(pd) && bia->data_type != tsr_f32))
        return tsr_unimplemented;

    gemm_conv_sizes_init(cf, pd);
    if (gemm_conv_resolve_any(dst, 0, 0, 0) != tsr_success ||
        gemm_conv_resolve_any(src, 0, 0, 0) != tsr_success)
        return tsr_unimplemented;
    if (!gemm_conv_md_is_plain(src, tsr_f32) ||
        !gemm_conv_md_is_plain(dst, tsr_f32) || !conv_src_offsets_fit(pd))
        return tsr_unimplemented;
    if (!gemm_conv_data_init(cf, src, dst))
        return tsr_unimplemented;
    if (cf->dst_s[CONV_C] == 1 || cf->sh.OCg * cf->sh.G == 1)
        cf->dst_cl = 1;
    else if (cf->dst_s[CONV_W] != 1 && cf->SP > 1)
        return tsr_unimplemented;
    if (!cf->dst_cl && cf->sh.OCg > 1 && cf->dst_s[CONV_C] < cf->SP)
        return tsr_unimplemented;
    cf->dst_sp_step = cf->dst_cl ? cf->dst_s[CONV_W] : 1;
    if (cf->dst_cl && cf->SP > 1 && cf->dst_sp_step < cf->sh.OCg)
        return tsr_unimplemented;
    if (nthr == 0) {
        const tsr_status_t st = staging_init(cf, pd);
        if (st != tsr_unimplemented)
            return st;
    }

    /* Weights for "any" with a channels-last dst: the GEMM's B panels,
     * always read in place (the ISA cap froze when the pd chose their
     * width), so no plain copy is booked. */
    if (!gemm_conv_weights_init(cf, wei, with_groups, tsr_f32,
                                cf->dst_cl ? tsr_gemm_f32_prepacked_nr() : 0,
                                1))
        return tsr_unimplemented;
    cf->panel_copy_bytes = 0;
    if (conv_with_bias(pd) && gemm_conv_resolve_bias(bia) != tsr_success)
        return tsr_unimplemented;

    cf->src_cl = cf->src_s[CONV_C] == 1;
    /* A single tap (strided or padded 1x1) goes by taps too, so nothing
     * is gathered (res5a_branch2a mb1, 2 threads: 373 -> 427 GFLOPS;
     * capped at AVX2 197 -> 216); plan_work settles which taps, if any. */
    const int taps_able = cf->kic && cf->src_cl && cf->dst_cl &&
                          cf->wei_panels && tsr_gemm_f32_taps_supported(1, 1);
    /* A unit 1x1 reads its source rows in place, as A of the GEMM or as
     * one tap each. Taller tap tiles win where a tile sums enough input
     * channels to pay for listing and storing its rows (ResNet-50 1x1
     * layers, 2 threads: ic512 to ic2048 +8% to +19% at mb32 and up to
     * +14% at mb1; ic64 oc64 lost 5-8%, at mb32 24%). With fewer the
     * stores weigh more: ic128 oc512 and ic256 oc1024 ran 2-6% faster in
     * place from mb4 on, alike at mb1 (AMD Zen 5). Output channels that
     * one wide tile of rows in place covers stay there: the tile reads
     * each row once for all of them (ic192 to ic512, oc64, mb1: +2% to
     * +11%). */
    cf->direct = gemm_conv_src_direct(cf) &&
                 !(taps_able && tsr_gemm_f32_taps_taller() &&
                   cf->sh.ICg >= UNIT_1X1_TAPS_MIN_IC &&
                   cf->sh.OCg > tsr_gemm_f32_wide_tile_cols());

    const tsr_status_t st = gemm_conv_epilogue_init(pd, cf);
    if (st != tsr_success)
        return st;
    cf->taps_ok = !cf->direct && taps_able;
    plan_work(cf);
    if (cf->taps_ok && !cf->row_taps) {
        /* With an order over several images, an item is one such run: a
         * tile then holds points of one class, not the end of one image
         * and the start of the next. */
        const tsr_dim_t images = order_images(cf);
        cf->point_order = gemm_conv_padding_order(
                cf, tsr_gemm_f32_taps_row_tile(), images);
        cf->order_rows = images * cf->SP;
        if (cf->point_order && images > 1)
            cf->chunk_sp = cf->order_rows;
        cf->taps_cut = taps_cut_pays(cf);
    }
    return size_work(cf) ? tsr_success : tsr_unimplemented;
}

static tsr_status_t gemm_conv_init(struct tsr_primitive_desc *pd) {
    gemm_conv_conf_t *cf = malloc(sizeof(*cf));
    if (!cf)
        return tsr_out_of_memory;
    /* conf_init clears cf first, so conf_fini frees what a failure
     * leaves. */
    const tsr_status_t st = conf_init(cf, pd, 0);
    if (st != tsr_success) {
        conf_fini(cf);
        free(cf);
        return st;
    }
    const gemm_conv_staging_t *sg = cf->staging;
    const size_t slice_bytes = sg ? sg->slot_bytes : cf->thread_bytes;
    const int per_thread = sg ? sg->per_thread : cf->per_thread_items;
    if (!tsr_mul_size(slice_bytes, (size_t)(per_thread ? cf->nthr : 1),
                      &pd->scratchpad_size)) {
        conf_fini(cf);
        free(cf);
        return tsr_unimplemented;
    }
    pd->impl_data = cf;
    return tsr_success;
}

static void conf_fini(gemm_conv_conf_t *cf) {
    free(cf->point_order);
    if (cf->staging)
        conf_fini(&cf->staging->cl);
    free(cf->staging);
}

static void gemm_conv_fini(struct tsr_primitive_desc *pd) {
    gemm_conv_conf_t *cf = pd->impl_data;
    if (cf)
        conf_fini(cf);
    free(cf);
}

/* Staging (gemm_conv_staging_t): a stage's copies stay within this size
 * when each thread runs its own stages. */
#define STAGE_BYTES ((size_t)1 << 20)
/* Images beyond this size are not staged: the copies would double the
 * data's footprint for little gain. */
#define STAGE_MAX_IMAGE_BYTES ((size_t)64 << 20)
/* Fewest output channels per group of a grouped layer for staging:
 * narrower groups make GEMMs too thin to pay for the copies (2 threads:
 * MobileNet conv2_1/dw mb1 17.4 -> 1.1 GFLOPS staged; 16 channels per
 * group won or lost 30%, g8 ic64 oc128 28x28 mb1 80 -> 56). */
#define STAGE_MIN_OCG 32

/* Output points per image up to which a subsampled 1x1 is staged: its
 * channels-first GEMM has as many columns per image, a few wide tiles
 * and their tails. ResNet-50's strided 1x1 layers, 2 threads, mb1 to
 * mb32: 7x7 outputs 10-25% faster staged, 14x14 -3% to +28% (res4a
 * mb32 -3%/+2%); 28x28 lost up to 9% from mb4 on, the extra pass over
 * the dst copy costing more than the tiles save. */
#define STAGE_SUBSAMPLED_MAX_SP 256

/* A strided 1x1 without padding, every point reading inside the source,
 * with few points per image: staged, its copy holds only the points it
 * reads (subsampled). */
static int subsampled_1x1(const gemm_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    return cf->KS == 1 && (sh->KSD > 1 || sh->KSH > 1 || sh->KSW > 1) &&
           sh->padF == 0 && sh->padT == 0 && sh->padL == 0 &&
           (sh->OD - 1) * sh->KSD < sh->ID && (sh->OH - 1) * sh->KSH < sh->IH &&
           (sh->OW - 1) * sh->KSW < sh->IW && cf->SP <= STAGE_SUBSAMPLED_MAX_SP;
}

/* Columns the GEMM's tiles compute for n columns of C: tiles as wide
 * as tsr_gemm_f32_wide_tile_cols, the last one a panel (or half of one)
 * when that holds the rest. */
static tsr_dim_t tiled_cols(tsr_dim_t n) {
    const tsr_dim_t wide = tsr_gemm_f32_wide_tile_cols(),
                    nr = tsr_gemm_f32_prepacked_nr(), rest = n % wide;
    const tsr_dim_t last = rest == 0        ? 0
                           : rest <= nr / 2 ? nr / 2
                           : rest <= nr     ? nr
                                            : wide;
    return n - rest + last;
}

/* Points per image up to which a unit 1x1 may be staged: a 10x10 image
 * (100 points in 128 columns) ran 12% slower staged, the copies weighing
 * more than the tiles save; so did 64 input channels (a 7x7 image to 128
 * output channels, 17% slower). */
#define STAGE_UNIT_1X1_MAX_SP 64
#define STAGE_UNIT_1X1_MIN_IC 256

/* A small unit 1x1 whose channels-first GEMM (columns: the points of an
 * image) wastes a seventh or more of its tiles' columns more than the
 * channels-last one would (columns: the output channels), on a kernel
 * with taller taps tiles: staged, it runs in whole tiles. A 7x7 image's
 * 49 points fill 64-column tiles (ResNet-50 res5a_branch2c mb1/mb32,
 * GoogLeNet inception_5b 1x1 and pool_proj, nchw, 2 threads: 18-28%
 * faster staged; res5b_branch2a, whose 4 MiB of weights stream either
 * way, alike). With AVX2's tiles the same ran up to 40% slower. */
static int unit_1x1_staged(const gemm_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    /* No padding: the output's sizes are the source's. */
    const int unit = cf->KS == 1 && sh->KSD == 1 && sh->KSH == 1 &&
                     sh->KSW == 1 && sh->padF == 0 && sh->padT == 0 &&
                     sh->padL == 0 && sh->OD == sh->ID && sh->OH == sh->IH &&
                     sh->OW == sh->IW;
    return unit && cf->SP <= STAGE_UNIT_1X1_MAX_SP &&
           sh->ICg >= STAGE_UNIT_1X1_MIN_IC && tsr_gemm_f32_taps_taller() &&
           tiled_cols(cf->SP) * sh->OCg * 7 >= tiled_cols(sh->OCg) * cf->SP * 8;
}

/* A layer with a channels-first source (cf's sizes, strides and dst_cl
 * set) worth computing channels-last: one whose im2col copies each source
 * point several times, on an engine that reads a source by taps; or a
 * subsampled 1x1, whose GEMM channels-last fills whole tiles; or a unit
 * 1x1 of few points that fill its tiles badly (else it reads its source
 * in place, as it is); a padded 1x1 gathers fewer points
 * than the whole source a copy would transpose (a strided 1x1 staged so:
 * res4a_branch2a mb1, 2 threads, 174 -> 118 GFLOPS). A channels-last dst
 * takes the results as they are. */
static int staging_wanted(const gemm_conv_conf_t *cf) {
    return cf->src_s[CONV_C] != 1 && cf->src_s[CONV_W] == 1 &&
           gemm_conv_spatial_linear(cf->src_s, cf->sh.ID, cf->sh.IH,
                                    cf->sh.IW) &&
           (cf->KS > 1 || subsampled_1x1(cf) || unit_1x1_staged(cf)) &&
           (cf->sh.G == 1 || cf->sh.OCg >= STAGE_MIN_OCG) &&
           tsr_gemm_f32_taps_supported(1, 1);
}

/* The dense channels-last form of data md `md` over `images` images. */
static tsr_status_t channels_last_md(const tsr_memory_desc_t *md,
                                     tsr_dim_t images, tsr_memory_desc_t *cl) {
    *cl = *md;
    cl->dims[0] = images;
    cl->format_kind = tsr_format_kind_any;
    return gemm_conv_resolve_any(cl, 0, 0, 0);
}

/* Sets cf->staging (and the rest of cf: the epilogue, for the final store)
 * when the layer is worth it and the channels-last convolution reads its
 * source by taps; tsr_unimplemented leaves cf as it was for the
 * unstaged path. The weights "any" become the channels-last
 * convolution's choice. */
static tsr_status_t staging_init(gemm_conv_conf_t *cf,
                                 struct tsr_primitive_desc *pd) {
    /* A strided 1x1 staging_wanted takes is subsampled. */
    const int subsampled = subsampled_1x1(cf);
    const size_t src_image = (size_t)(cf->sh.G * cf->sh.ICg *
                                      (subsampled ? cf->SP
                                                  : cf->sh.ID * cf->sh.IH *
                                                            cf->sh.IW)),
                 out_image = (size_t)(cf->sh.G * cf->sh.OCg * cf->SP);
    if (!staging_wanted(cf) ||
        sizeof(float) * (src_image + out_image) > STAGE_MAX_IMAGE_BYTES)
        return tsr_unimplemented;
    const int nthr = omp_get_max_threads();
    const tsr_dim_t MB = cf->sh.MB;
    /* A channels-last dst needs no copy. */
    const size_t dst_image = cf->dst_cl ? 0 : out_image;
    const size_t image_bytes = sizeof(float) * (src_image + dst_image);
    /* Whole stages per thread where each thread gets two or more; more
     * images per stage where they fit STAGE_BYTES (one GEMM over several
     * small images). */
    const int per_thread = nthr > 1 && MB >= 2 * nthr;
    tsr_dim_t images = 1;
    /* From the most images that fit STAGE_BYTES: no loop over the batch. */
    const tsr_dim_t most =
            per_thread ? TSR_MIN(MB / (2 * nthr),
                                 (tsr_dim_t)(STAGE_BYTES / image_bytes))
                       : 1;
    for (tsr_dim_t d = most; d > 1; d--)
        if (MB % d == 0 && (size_t)d * image_bytes <= STAGE_BYTES) {
            images = d;
            break;
        }
    gemm_conv_staging_t *sg = calloc(1, sizeof(*sg));
    struct tsr_primitive_desc *cl_pd = malloc(sizeof(*cl_pd));
    if (!sg || !cl_pd) {
        free(sg);
        free(cl_pd);
        return tsr_out_of_memory;
    }
    tsr_status_t st = gemm_conv_epilogue_init(pd, cf);
    /* Into a channels-last dst the stage's GEMMs store with the whole
     * epilogue, their images counted from the stage's first: the
     * epilogue must not tell images apart. */
    if (st == tsr_success && cf->dst_cl && !cf->ep_uniform_n)
        st = tsr_unimplemented;
    if (st != tsr_success) {
        free(sg);
        free(cl_pd);
        return st;
    }
    /* The same layer over one stage, channels-last. For a channels-first
     * dst it stores no epilogue but a bias (which its GEMM adds at the
     * store; the final store is then a copy). */
    *cl_pd = *pd;
    if (!cf->dst_cl)
        tsr_attr_init_default(&cl_pd->attr);
    if (!cf->dst_cl && !cf->ep_bias_only) {
        memset(&cl_pd->op.conv.bias_desc, 0, sizeof(cl_pd->op.conv.bias_desc));
        memset(&cl_pd->md[TSR_MD_BIAS], 0, sizeof(cl_pd->md[TSR_MD_BIAS]));
    }
    if (subsampled) {
        /* The unit 1x1 over the points read: a source of the dst's
         * spatial dims. */
        tsr_convolution_desc_t *d = &cl_pd->op.conv;
        for (int i = 0; i < cf->sh.ndims - 2; i++) {
            d->strides[i] = 1;
            d->padding_l[i] = d->padding_r[i] = 0;
        }
        tsr_memory_desc_t *s = &cl_pd->md[TSR_MD_SRC];
        for (int i = 2; i < cf->sh.ndims; i++)
            s->dims[i] = s->padded_dims[i] = pd->md[TSR_MD_DST].dims[i];
    }
    st = channels_last_md(&cl_pd->md[TSR_MD_SRC], images,
                          &cl_pd->md[TSR_MD_SRC]);
    if (cf->dst_cl) {
        /* The stage's images of dst itself. */
        cl_pd->md[TSR_MD_DST].dims[0] = images;
        cl_pd->md[TSR_MD_DST].padded_dims[0] = images;
    } else if (st == tsr_success) {
        st = channels_last_md(&pd->md[TSR_MD_DST], images,
                              &cl_pd->md[TSR_MD_DST]);
    }
    cl_pd->op.conv.src_desc = cl_pd->md[TSR_MD_SRC];
    cl_pd->op.conv.dst_desc = cl_pd->md[TSR_MD_DST];
    if (st == tsr_success)
        st = conf_init(&sg->cl, cl_pd, per_thread ? 1 : nthr);
    if (st == tsr_success && !sg->cl.taps_ok && !sg->cl.direct)
        st = tsr_unimplemented;
    /* Its epilogue of the pd's own attr (cl_pd's copy goes now). */
    if (st == tsr_success && cf->dst_cl)
        st = gemm_conv_epilogue_init(pd, &sg->cl);
    if (st != tsr_success) {
        conf_fini(&sg->cl);
        free(sg);
        free(cl_pd);
        return st;
    }
    pd->md[TSR_MD_WEIGHTS] = cl_pd->md[TSR_MD_WEIGHTS];
    free(cl_pd);
    sg->images = images;
    sg->per_thread = per_thread;
    sg->subsampled = subsampled;
    sg->src_floats = (size_t)images * src_image;
    sg->dst_floats = (size_t)images * dst_image;
    const gemm_conv_conf_t *cl = &sg->cl;
    sg->slot_bytes =
            tsr_rnd_up(sg->src_floats * sizeof(float), 64) +
            tsr_rnd_up(sg->dst_floats * sizeof(float), 64) +
            cl->thread_bytes * (size_t)(cl->per_thread_items ? cl->nthr : 1);
    cf->nthr = nthr;
    cf->staging = sg;
    return tsr_success;
}

/* The epilogue's view of one GEMM call. */
typedef struct {
    const gemm_conv_conf_t *cf;
    const tsr_epilogue_rt_t *rt;
    float *dst;
    tsr_dim_t n, g, sp0;
    const int32_t *order; /* the rows' point order; NULL: natural */
} store_ctx_t;

static void store_tile(const void *ctx, float *c, int64_t ldc, int64_t m0,
                       int64_t n0, int64_t m, int64_t n) {
    const store_ctx_t *s = ctx;
    const gemm_conv_conf_t *cf = s->cf;
    if (cf->dst_cl && s->order) {
        /* Rows in the padding order: each at its point's place. */
        for (int64_t r = 0; r < m; r++)
            gemm_conv_store_rows(
                    cf, s->rt, c + r * ldc, ldc, s->n,
                    gemm_conv_ordered_point(cf, s->order, s->sp0 + m0 + r),
                    s->g * cf->sh.OCg + n0, 1, n, s->dst);
        return;
    }
    if (cf->dst_cl) {
        gemm_conv_store_rows(cf, s->rt, c, ldc, s->n, s->sp0 + m0,
                             s->g * cf->sh.OCg + n0, m, n, s->dst);
        return;
    }
    gemm_conv_store_cf_rows(cf, s->rt, c, ldc, s->n, s->g * cf->sh.OCg + m0,
                            s->sp0 + n0, m, n, s->dst);
}

/* Thread-local buffers of one slice of the scratchpad. */
typedef struct {
    float *col, *cbuf;
    int64_t *dst_rows; /* with the padding order */
    void *gemm;
} slice_t;

static slice_t slice_at(const gemm_conv_conf_t *cf, char *base, int i) {
    char *p = base + (size_t)i * cf->thread_bytes;
    slice_t s;
    s.col = (float *)p;
    s.cbuf = s.col + cf->col_floats;
    s.dst_rows = (int64_t *)(p + tsr_rnd_up((cf->col_floats + cf->cbuf_floats) *
                                                    sizeof(float),
                                            64));
    s.gemm = p + (cf->thread_bytes - cf->gemm_bytes);
    return s;
}

/* A direct 1x1's data operand: the source at image n, group g, point sp0. */
static const float *direct_operand(const gemm_conv_conf_t *cf, const float *src,
                                   tsr_dim_t n, tsr_dim_t g, tsr_dim_t sp0) {
    return src + cf->src_off0 + n * cf->src_s[CONV_N] +
           g * cf->sh.ICg * cf->src_s[CONV_C] + sp0 * cf->src_s[CONV_W];
}

/* Operands of one item's GEMM. */
static void set_operands(const gemm_conv_conf_t *cf, const float *src,
                         const float *wei, int wei_in_place, float *dst,
                         const slice_t *sl, tsr_dim_t n, tsr_dim_t g,
                         tsr_dim_t sp0, tsr_dim_t len, tsr_gemm_f32_args_t *a) {
    const float *w = wei + cf->wei_off0 + g * cf->wei_g_stride;
    if (wei_in_place)
        w = wei + g * cf->panel_g_stride;
    /* The data operand: col, or the source itself for direct 1x1. */
    const float *x = sl->col;
    int x_trans = 0;
    tsr_dim_t x_ld = cf->dst_cl ? cf->K : len;
    if (cf->direct) {
        x = direct_operand(cf, src, n, g, sp0);
        const tsr_dim_t sw = cf->src_s[CONV_W], sc = cf->src_s[CONV_C];
        /* Points at stride sw, channels at stride sc: whichever is 1 is
         * the contiguous dim of the GEMM operand. */
        if (cf->dst_cl) {
            x_trans = sc != 1;
            x_ld = sc == 1 ? sw : sc;
        } else {
            x_trans = sw != 1;
            x_ld = sw == 1 ? sc : sw;
        }
        if (x_ld < 1)
            x_ld = 1;
    }
    const int reads_dst = tsr_epilogue_reads_dst(&cf->ep);
    if (cf->dst_cl) {
        a->M = len;
        a->N = cf->sh.OCg;
        a->A = x;
        a->transa = x_trans;
        a->lda = x_ld;
        a->B = w;
        a->b_prepacked = wei_in_place;
        a->transb = cf->wei_oc_rows;
        a->ldb = cf->wei_ld;
        a->C = reads_dst
                       ? sl->cbuf
                       : dst + gemm_conv_dst_offset(cf, n, g * cf->sh.OCg, sp0);
        a->ldc = reads_dst ? cf->sh.OCg : cf->dst_sp_step;
    } else {
        a->M = cf->sh.OCg;
        a->N = len;
        a->A = w;
        a->transa = !cf->wei_oc_rows;
        a->lda = cf->wei_ld;
        a->B = x;
        a->transb = x_trans;
        a->ldb = x_ld;
        a->C = reads_dst
                       ? sl->cbuf
                       : dst + gemm_conv_dst_offset(cf, n, g * cf->sh.OCg, sp0);
        a->ldc = reads_dst ? len : cf->dst_s[CONV_C];
    }
    /* Single rows or columns: any leading dimension the GEMM accepts. */
    if (a->ldc < a->N)
        a->ldc = a->N;
    const int64_t a_cols = a->transa ? a->M : a->K;
    const int64_t b_cols = a->transb ? a->K : a->N;
    if (a->lda < a_cols)
        a->lda = a_cols;
    if (a->ldb < b_cols)
        a->ldb = b_cols;
}

typedef struct {
    const gemm_conv_conf_t *cf;
    const float *src, *wei;
    int wei_in_place; /* wei: the weights panels (group 0) */
    float *dst;
    const tsr_epilogue_rt_t *rt;
    char *scratch; /* the thread slices */
} exec_t;

/* One item: gather (unless direct), then the GEMM with the epilogue. When
 * `team` is set the item is spread over all threads. */
static tsr_status_t run_item(const void *ctx, int ithr, tsr_dim_t item,
                             int team) {
    const exec_t *e = ctx;
    const gemm_conv_conf_t *cf = e->cf;
    const slice_t slice = slice_at(cf, e->scratch, ithr), *sl = &slice;
    const gemm_conv_item_t it = gemm_conv_item_at(cf, item);
    const tsr_dim_t n = it.n, g = it.g, sp0 = it.sp0, len = it.len;
    const int32_t *order = cf->point_order; /* set only with taps */
    /* A cursor where one thread lists the item's tiles: a team of
     * several lists them from each of its threads. */
    gemm_conv_tap_cursor_t cursor = {-1, {0, 0, 0, 0}};
    const gemm_conv_tap_rows_t rows = {
            cf,
            (const char *)(e->src + cf->src_off0 + g * cf->sh.ICg),
            sizeof(float),
            sl->col,
            1,
            n,
            sp0,
            order,
            team && cf->nthr > 1 ? NULL : &cursor};
    gemm_conv_row_taps_t kernel_rows;
    tsr_gemm_taps_t taps = tap_shape(cf, cf->row_taps);
    if (cf->row_taps) {
        gemm_conv_row_window(cf, e->src, n, sp0, len, sl->col, &kernel_rows);
        taps.rows = gemm_conv_row_tap_rows;
        taps.ctx = &kernel_rows;
    } else if (cf->taps_ok) {
        memset(sl->col, 0, sizeof(float) * (size_t)cf->sh.ICg);
        taps.rows = gemm_conv_tap_rows;
        taps.ctx = &rows;
        taps.row_taps = cf->taps_cut ? gemm_conv_row_tap_mask : NULL;
    } else if (!cf->direct) {
        gemm_conv_gather(cf, e->src, sizeof(float), NULL, &it, team, sl->col);
    }
    tsr_gemm_f32_args_t a;
    memset(&a, 0, sizeof(a));
    a.K = cf->K;
    a.alpha = 1.f;
    a.beta = 0.f;
    set_operands(cf, e->src, e->wei, e->wei_in_place, e->dst, sl, n, g, sp0,
                 len, &a);
    if (cf->taps_ok) {
        a.a_taps = &taps;
        if (order && !tsr_epilogue_reads_dst(&cf->ep)) {
            /* Rows in the padding order: each stored at its point. */
            gemm_conv_ordered_dst_rows(cf, order, n, g, sp0, len, sl->dst_rows);
            a.C = e->dst;
            a.c_row_off = sl->dst_rows;
        }
    }
    const store_ctx_t sctx = {cf, e->rt, e->dst, n, g, sp0, order};
    if (cf->ep_bias_only) {
        /* The GEMM adds it as the epilogue would: acc + bias. */
        a.bias_kind =
                cf->dst_cl ? tsr_gemm_bias_per_col : tsr_gemm_bias_per_row;
        a.bias = (const float *)e->rt->bias + cf->ep.bias_md.offset0 +
                 g * cf->sh.OCg;
    }
    const int need_epilogue = !cf->ep_identity && !cf->ep_bias_only;
    a.epilogue = need_epilogue ? store_tile : NULL;
    a.epilogue_ctx = &sctx;
    a.a_streamed = cf->direct && src_streamed(cf);
    if (cf->direct && !cf->dst_cl && !team) {
        /* Items go to the free thread, mostly in turn: this thread's next
         * is likely nthr on. Its source, as B, is fetched ahead. */
        const tsr_dim_t next = item + cf->nthr;
        if (next < gemm_conv_items(cf)) {
            const gemm_conv_item_t nx = gemm_conv_item_at(cf, next);
            if (nx.len == len)
                a.b_next = direct_operand(cf, e->src, nx.n, nx.g, nx.sp0);
        }
    }
    a.scratch = sl->gemm;
    a.scratch_size = cf->gemm_bytes;
    a.team_nthr = team ? 0 : 1;
    a.team_ithr = 0;
    return tsr_gemm_f32(&a);
}

/* The weights as e's GEMMs read them; tsr_runtime_error when the kernel
 * no longer takes what the pd planned. */
static tsr_status_t set_weights(exec_t *e) {
    const gemm_conv_conf_t *cf = e->cf;
    if (cf->wei_panels) {
        /* The ISA cap froze when the pd chose the panels' width, so the
         * kernel reads them in place. */
        if (tsr_gemm_f32_prepacked_nr() != cf->panel_nr)
            return tsr_runtime_error;
        e->wei += cf->panel_off0;
        e->wei_in_place = 1;
    }
    /* Likewise the kernel's taps: col was sized for them. */
    if (cf->taps_ok && !tap_shape_supported(cf, cf->row_taps))
        return tsr_runtime_error;
    return tsr_success;
}

/* One stage's run of the channels-last convolution. */
typedef struct {
    exec_t cl; /* over the copies */
    const gemm_conv_conf_t *cf;
    float *dst;
    tsr_dim_t n0;
    /* A channels-first dst takes each item's points as soon as it is
     * done, while they are in the caches: items are runs of points (not
     * in the padding order within an image). */
    int per_item;
} stage_exec_t;

/* The stage's points r0 .. r1 - 1, channels oc0 .. oc1 - 1, into dst,
 * over all threads when `team`. */
static void unstage(const stage_exec_t *se, tsr_dim_t r0, tsr_dim_t r1,
                    tsr_dim_t oc0, tsr_dim_t oc1, int team) {
    const float *copy = se->cl.dst;
    if (!team) {
        gemm_conv_unstage_dst(se->cf, se->cl.rt, copy, se->n0, r0, r1, oc0, oc1,
                              0, 1, se->dst);
        return;
    }
#pragma omp parallel num_threads(se->cf->nthr)
    gemm_conv_unstage_dst(se->cf, se->cl.rt, copy, se->n0, r0, r1, oc0, oc1,
                          omp_get_thread_num(), omp_get_num_threads(), se->dst);
}

static tsr_status_t run_stage_item(const void *ctx, int ithr, tsr_dim_t item,
                                   int team) {
    const stage_exec_t *se = ctx;
    const tsr_status_t st = run_item(&se->cl, ithr, item, team);
    if (st != tsr_success || !se->per_item)
        return st;
    const gemm_conv_conf_t *cl = se->cl.cf;
    const gemm_conv_item_t it = gemm_conv_item_at(cl, item);
    const tsr_dim_t r0 = it.n * cl->SP + it.sp0, OCg = cl->sh.OCg;
    unstage(se, r0, r0 + it.len, it.g * OCg, (it.g + 1) * OCg, team);
    return tsr_success;
}

/* One stage (gemm_conv_staging_t) on slot `slot` of the scratchpad: over
 * all threads, or (per_thread) on the calling thread alone. */
static tsr_status_t run_stage(const gemm_conv_conf_t *cf, const exec_t *cl_e,
                              const float *src, float *dst, tsr_dim_t stage,
                              char *slot) {
    const gemm_conv_staging_t *sg = cf->staging;
    const gemm_conv_conf_t *cl = &sg->cl;
    float *src_copy = (float *)slot;
    float *dst_copy =
            (float *)(slot + tsr_rnd_up(sg->src_floats * sizeof(float), 64));
    stage_exec_t se = {
            *cl_e, cf, dst, stage * sg->images,
            !cf->dst_cl && (!cl->point_order || cl->chunk_sp % cl->SP == 0)};
    se.cl.src = src_copy;
    /* A channels-last dst: the stage's part of it, stored as computed. */
    se.cl.dst = cf->dst_cl ? dst + se.n0 * cf->dst_s[CONV_N] : dst_copy;
    se.cl.scratch =
            (char *)dst_copy + tsr_rnd_up(sg->dst_floats * sizeof(float), 64);
    const tsr_dim_t points = sg->images * cl->SP, OC = cl->sh.G * cl->sh.OCg;
    tsr_status_t st = tsr_success;
    if (sg->per_thread) {
        gemm_conv_stage_src(cf, src, se.n0, sg->images, 0, 1, src_copy);
        const tsr_dim_t items = gemm_conv_items(cl);
        for (tsr_dim_t i = 0; i < items && st == tsr_success; i++)
            st = run_stage_item(&se, 0, i, 0);
    } else {
#pragma omp parallel num_threads(cf->nthr)
        gemm_conv_stage_src(cf, src, se.n0, sg->images, omp_get_thread_num(),
                            omp_get_num_threads(), src_copy);
        st = gemm_conv_run_items(cl, run_stage_item, &se);
    }
    if (st == tsr_success && !se.per_item && !cf->dst_cl)
        unstage(&se, 0, points, 0, OC, !sg->per_thread);
    return st;
}

static tsr_status_t execute_staged(const gemm_conv_conf_t *cf,
                                   const tsr_epilogue_rt_t *rt,
                                   const float *src, const float *wei,
                                   float *dst, char *scratch) {
    const gemm_conv_staging_t *sg = cf->staging;
    exec_t e = {&sg->cl, NULL, wei, 0, NULL, rt, NULL};
    tsr_status_t st = set_weights(&e);
    if (st != tsr_success)
        return st;
    const tsr_dim_t stages = cf->sh.MB / sg->images;
    if (!sg->per_thread) {
        for (tsr_dim_t s = 0; s < stages && st == tsr_success; s++)
            st = run_stage(cf, &e, src, dst, s, scratch);
        return st;
    }
#pragma omp parallel num_threads(cf->nthr)
    {
        char *slot = scratch + sg->slot_bytes * (size_t)omp_get_thread_num();
        /* Stages go to the thread that is free, as items do
         * (gemm_conv_run_items). */
#pragma omp for schedule(dynamic, 1)
        for (tsr_dim_t s = 0; s < stages; s++) {
            const tsr_status_t s_st = run_stage(cf, &e, src, dst, s, slot);
            if (s_st != tsr_success) {
#pragma omp critical
                st = s_st;
            }
        }
    }
    return st;
}

static tsr_status_t gemm_conv_execute(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx) {
    const gemm_conv_conf_t *cf = pd->impl_data;
    char *scratch = ctx->scratchpad;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&cf->ep, ctx, &rt);
    if (cf->staging)
        return execute_staged(cf, &rt, tsr_ctx_data(ctx, TSR_ARG_SRC),
                              tsr_ctx_data(ctx, TSR_ARG_WEIGHTS),
                              tsr_ctx_data(ctx, TSR_ARG_DST), scratch);
    exec_t e = {cf,
                tsr_ctx_data(ctx, TSR_ARG_SRC),
                tsr_ctx_data(ctx, TSR_ARG_WEIGHTS),
                0,
                tsr_ctx_data(ctx, TSR_ARG_DST),
                &rt,
                scratch};
    const tsr_status_t st = set_weights(&e);
    if (st != tsr_success)
        return st;
    return gemm_conv_run_items(cf, run_item, &e);
}

const tsr_impl_t tsr_gemm_convolution_f32_fwd_impl = {
        .name = "gemm:f32",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_conv_init,
        .execute = gemm_conv_execute,
        .fini = gemm_conv_fini,
};
