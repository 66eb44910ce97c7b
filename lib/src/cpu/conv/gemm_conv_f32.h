/* The GEMM convolutions ("gemm:f32" and the int8 "gemm:s8"): their
 * problem configuration, built at pd init, the layout helpers they share
 * and the im2col that feeds the GEMM.
 *
 * Per image n and group g the convolution is one GEMM over the flattened
 * output spatial points sp (od, oh, ow) and the reduction index k over
 * (ic, kd, kh, kw) of the group:
 *   channels-last dst (nhwc family): C[sp][oc] = col[sp][k] * W[k][oc]
 *   channels-first dst (nchw family): C[oc][sp] = W[oc][k] * col[k][sp]
 * For f32, C is the dst itself (its spatial points are equally spaced)
 * unless a sum post-op needs the old dst. The K order of col matches the
 * weights layout: "kic" (kernel point outer, input channel inner, e.g.
 * hwio, ohwi) or "ick" (input channel outer, e.g. oihw). 1x1 convolutions
 * with stride 1 and no padding read the source directly; others gather it
 * chunk by chunk of spatial points into the col scratchpad. For small
 * channels-last images the rows of one GEMM may span several images
 * (batch_rows below). */
#ifndef TSR_CPU_CONV_GEMM_CONV_F32_H
#define TSR_CPU_CONV_GEMM_CONV_F32_H

#include <stddef.h>

#include "common/convolution_pd.h"
#include "cpu/common/epilogue_f32.h"
#include "cpu/gemm/gemm_taps.h"

/* Strides of a data tensor over the canonical dims n, c, d, h, w (missing
 * spatial dims have size 1, stride 0). */
enum { CONV_N = 0, CONV_C, CONV_D, CONV_H, CONV_W, CONV_NDIMS };

/* out[i] = in[2 * i] for i < n, reading nothing at or past in_end: the
 * channels-first im2col's runs of stride-2 layers (f32). */
typedef void (*gemm_conv_gather_s2_fn)(float *out, const float *in, tsr_dim_t n,
                                       const float *in_end);
void gemm_conv_gather_s2_f32_avx2(float *out, const float *in, tsr_dim_t n,
                                  const float *in_end);
void gemm_conv_gather_s2_f32_avx512(float *out, const float *in, tsr_dim_t n,
                                    const float *in_end);

/* mat[w * ld + i] = in[i * c_stride + 2 * w] for i < 8, w < n, reading
 * nothing at or past in_end: eight channels of a stride-2 run, transposed
 * channels-last (the staging copy of a subsampled 1x1; AVX2). */
void gemm_conv_gather_s2_transpose8_f32_avx2(const float *in,
                                             tsr_dim_t c_stride, float *mat,
                                             tsr_dim_t ld, tsr_dim_t n,
                                             const float *in_end);

typedef struct {
    conv_sizes_t sh;
    tsr_dim_t DD, DH, DW; /* dilated steps (1 + dilation) */
    tsr_dim_t SP, KS, K;  /* OD*OH*OW, KD*KH*KW, ICg*KS */
    /* Elements from one channels-last col row to the next: K, or more
     * for a GEMM that reads whole K groups of a row (the values past K
     * are written as zeros). */
    tsr_dim_t col_ld;
    /* 1: bytes copied from the source into col get their sign bit flipped
     * (s8 x stored as the u8 x + 128); pad values are written as given. */
    int col_flip_sign;

    tsr_dim_t src_s[CONV_NDIMS], dst_s[CONV_NDIMS];
    tsr_dim_t src_off0, dst_off0;
    tsr_dim_t src_nelems;  /* the source buffer's extent (md_nelems_padded) */
    tsr_dim_t dst_sp_step; /* element distance of consecutive sp points */
    /* The stride-2 gather for an f32 source, as the CPU allows; NULL:
     * the im2col's scalar copy. */
    gemm_conv_gather_s2_fn gather_s2;

    int dst_cl;      /* dst channels-last: C rows are spatial points */
    int kic;         /* col K order: kernel point outer, ic inner */
    int wei_oc_rows; /* weights as OCg x K with K stride 1; else K x OCg
                        with OC stride 1 */
    tsr_dim_t wei_ld, wei_g_stride, wei_off0;
    /* Weights laid out as the GEMM's packed B panels (see
     * gemm_conv_weights_init; channels-last dst): group g at panel_off0 +
     * g * panel_g_stride, panel_bytes bytes in all. The wei_* fields above
     * then describe their plain copy (K x OCg, OC stride 1) for executions
     * that cannot read the panels in place. */
    int wei_panels, panel_nr, panel_kblk;
    tsr_dim_t panel_g_stride, panel_off0, panel_bytes;
    size_t panel_copy_bytes; /* scratchpad for the plain copy */

    int direct; /* 1x1, stride 1, no padding: no im2col */
    /* The GEMM may read the source in place by taps (no im2col; with zero
     * padding, taps a whole tile reads in the padding left out): a
     * channels-last source and K order kic, weights panels read in place,
     * and what the engine's kernel takes (int8: u8, whole K quads per
     * tap). */
    int taps_ok;
    /* By taps of whole kernel rows from a padded window of the source
     * (f32: gemm_conv_row_taps.c; int8 with src_window:
     * gemm_conv_s8_window.c): layers with few input channels. */
    int row_taps;
    /* The order of the points of order_rows / SP images as GEMM rows by
     * taps with zero padding (gemm_conv_padding_order; NULL: the natural
     * order). Over several images, items are whole such runs. */
    int32_t *point_order;
    tsr_dim_t order_rows;
    /* f32 by taps: the GEMM cuts its row tiles to the taps their points
     * read (tsr_gemm_taps_t.row_taps), where that pays
     * (tsr_gemm_f32_taps_cut_pays over one run of order_rows rows). */
    int taps_cut;
    /* By tap offsets over a zero-padded window of the source rows
     * (gemm_conv_s8_window.c): int8 stride-1 layers on a kernel that takes
     * them; never batch_rows. */
    int src_window;
    int src_cl; /* source channel stride 1 */
    /* GEMM rows run on across images: row sp >= SP of an item starting in
     * image n is point sp % SP of image n + sp / SP (channels-last dst,
     * images equally spaced), so one GEMM covers the points of several
     * images and packs the weights once for all of them. */
    int batch_rows;
    tsr_dim_t chunk_sp; /* GEMM rows of an item (but its last) */
    int nthr; /* threads booked in the scratchpad (preset: planned for) */
    int per_thread_items; /* many (n, g, chunk) items: one GEMM per thread */
    /* col_floats, cbuf_floats: f32 only (gemm:s8 sizes its byte col
     * itself and needs no C buffer). */
    size_t col_floats, cbuf_floats, gemm_bytes, thread_bytes;

    tsr_epilogue_t ep;
    int ep_identity, ep_bias_only, ep_uniform_sp, ep_uniform_n;

    /* Channels-first data computed channels-last (see
     * gemm_conv_staging_t); NULL: as they are. */
    struct gemm_conv_staging *staging;
} gemm_conv_conf_t;

/* A layer with a channels-first source computed channels-last through a
 * copy: a stage of `images` images of the source is transposed
 * channels-last (gemm_conv_stage_src) and the channels-last GEMM
 * convolution `cl` computes the stage. Into a channels-last dst it stores
 * as it would (with the whole epilogue, which must not tell images
 * apart). For a channels-first dst it stores at most a bias into a
 * channels-last copy, which the epilogue stores into dst
 * (gemm_conv_unstage_dst). The copies let the GEMM read the source by
 * taps instead of through an im2col. */
typedef struct gemm_conv_staging {
    gemm_conv_conf_t cl;
    tsr_dim_t images;
    /* Each thread runs whole stages, their GEMMs on one thread; else a
     * stage at a time over all threads. */
    int per_thread;
    /* A strided 1x1 without padding: the source copy holds only the
     * points the layer reads (OD x OH x OW per image) and cl is the unit
     * 1x1 over them. */
    int subsampled;
    size_t src_floats, dst_floats; /* the copies of one stage (dst: 0
                                      with a channels-last dst) */
    size_t slot_bytes;             /* copies and cl's scratchpad */
} gemm_conv_staging_t;

/* An output point: its image (counted from the call's first, under
 * batch_rows), od, oh and ow. */
typedef struct {
    tsr_dim_t img, od, oh, ow;
} gemm_conv_point_t;

/* Point sp, counted from the first point of an image. */
static inline gemm_conv_point_t gemm_conv_point_of(const gemm_conv_conf_t *cf,
                                                   tsr_dim_t sp) {
    const tsr_dim_t pt = sp % cf->SP;
    const gemm_conv_point_t p = {sp / cf->SP, pt / (cf->sh.OW * cf->sh.OH),
                                 (pt / cf->sh.OW) % cf->sh.OH, pt % cf->sh.OW};
    return p;
}

/* The point after p, without divisions: divisions per point cost first
 * layers (K = 147, 21-byte im2col rows) a third of their im2col. */
static inline void gemm_conv_next_point(const gemm_conv_conf_t *cf,
                                        gemm_conv_point_t *p) {
    if (++p->ow < cf->sh.OW)
        return;
    p->ow = 0;
    if (++p->oh < cf->sh.OH)
        return;
    p->oh = 0;
    if (++p->od < cf->sh.OD)
        return;
    p->od = 0;
    p->img++;
}

/* The source coordinates tap (0, 0, 0) of point p reads (in the padding
 * when outside [0, ID) x [0, IH) x [0, IW)). */
static inline void gemm_conv_src_origin(const gemm_conv_conf_t *cf,
                                        const gemm_conv_point_t *p,
                                        tsr_dim_t *id, tsr_dim_t *ih,
                                        tsr_dim_t *iw) {
    *id = p->od * cf->sh.KSD - cf->sh.padF;
    *ih = p->oh * cf->sh.KSH - cf->sh.padT;
    *iw = p->ow * cf->sh.KSW - cf->sh.padL;
}

/* 1 when source point (id, ih, iw) lies inside the source, not in the
 * padding. */
static inline int gemm_conv_src_inside(const gemm_conv_conf_t *cf, tsr_dim_t id,
                                       tsr_dim_t ih, tsr_dim_t iw) {
    return id >= 0 && id < cf->sh.ID && ih >= 0 && ih < cf->sh.IH && iw >= 0 &&
           iw < cf->sh.IW;
}

/* Position in the K order of (kernel point kidx, input channel ic). */
static inline tsr_dim_t gemm_conv_k_index(const gemm_conv_conf_t *cf,
                                          tsr_dim_t kidx, tsr_dim_t ic) {
    return cf->kic ? kidx * cf->sh.ICg + ic : ic * cf->KS + kidx;
}

/* Fills part `part` of `nparts` (split over points for channels-last,
 * over K rows for channels-first) of the col of the chunk of `len` spatial
 * points from sp0 of image n (continuing into the next images under
 * batch_rows), group g, laid out for the dst family (see above). Elements are
 * `elem_size` bytes (1, 2 or 4) and copied as they are (bytes with their sign
 * bit flipped under cf->col_flip_sign). Input points outside the source
 * (padding) take pad[ic], ic the channel within the group, or zero when pad
 * is NULL. */
void gemm_conv_im2col_elems(const gemm_conv_conf_t *cf, const void *src,
                            size_t elem_size, const void *pad, tsr_dim_t n,
                            tsr_dim_t g, tsr_dim_t sp0, tsr_dim_t len, int part,
                            int nparts, void *col);

/* The f32 im2col: padding gives 0.f. */
static inline void gemm_conv_im2col(const gemm_conv_conf_t *cf,
                                    const float *src, tsr_dim_t n, tsr_dim_t g,
                                    tsr_dim_t sp0, tsr_dim_t len, int part,
                                    int nparts, float *col) {
    gemm_conv_im2col_elems(cf, src, sizeof(float), NULL, n, g, sp0, len, part,
                           nparts, col);
}

/* Work items (gemm_conv_items.c): (image n, group g, chunk of spatial
 * points sp0 .. sp0 + len - 1), each one GEMM. Under batch_rows the chunk
 * may run on into the next images (see there). */
typedef struct {
    tsr_dim_t n, g, sp0, len;
} gemm_conv_item_t;

/* Fewest spatial points of an item cut finer for the threads: below it the
 * threads share one GEMM instead (each would pack, or read, all the
 * weights). */
#define GEMM_CONV_MIN_SPLIT_SP 192
/* The same for an item gathered into col with the weights read in place:
 * cut per thread, each thread gathers and reads only its own col rows and
 * packs nothing, which pays down to small cuts (2 threads: s8s8s8
 * res4a_branch2b 824 -> 899 GOPS; f32 res4a_branch2a 201 -> 222 GFLOPS,
 * res4a_branch2b 212 -> 224). */
#define GEMM_CONV_MIN_OWN_COL_SPLIT_SP 32

/* Sets nthr (the OpenMP maximum unless preset), batch_rows, chunk_sp and
 * per_thread_items (needs direct,
 * dst_cl, the strides and the epilogue): chunks of about col_chunk_bytes
 * of col (col_point_bytes per spatial point); with many items each thread
 * runs whole items with its own GEMM, with few they run one after the
 * other, each over all threads. A nonzero min_split_sp cuts a few large
 * items finer, down to that many points, so that every thread still gets
 * its own. Small images of a
 * channels-last dst are batched (batch_rows) into chunks over several
 * images, cut so that every thread gets as many. The GEMM engines sum each
 * element over K in an order that does not depend on M, N or their split,
 * so no cut changes a result. */
void gemm_conv_plan_items(gemm_conv_conf_t *cf, size_t col_point_bytes,
                          size_t col_chunk_bytes, tsr_dim_t min_split_sp);
tsr_dim_t gemm_conv_items(const gemm_conv_conf_t *cf);
gemm_conv_item_t gemm_conv_item_at(const gemm_conv_conf_t *cf, tsr_dim_t item);

/* The im2col of one item into col, over all threads when `team`. */
void gemm_conv_gather(const gemm_conv_conf_t *cf, const void *src, size_t esize,
                      const void *pad, const gemm_conv_item_t *it, int team,
                      void *col);

/* Runs every item: run_item(ctx, ithr, item, team) with team set when the
 * item should spread over all threads (its GEMM then runs its own
 * parallel region) and ithr the caller's slice of the scratchpad. Returns
 * the first failure. */
typedef tsr_status_t (*gemm_conv_item_fn)(const void *ctx, int ithr,
                                          tsr_dim_t item, int team);
tsr_status_t gemm_conv_run_items(const gemm_conv_conf_t *cf,
                                 gemm_conv_item_fn run_item, const void *ctx);

/* Staging (gemm_conv_staging.c), part `part` of `nparts` of: the
 * channels-first source of cf, `images` images from image n0, into `copy`
 * (images x ID x IH x IW x IC, or images x OD x OH x OW x IC when
 * subsampled); `copy` (the stage's points x OC, cl's
 * results), its points r0 .. r1 - 1 (point r of the stage: sp r % SP of
 * image n0 + r / SP) and channels oc0 .. oc1 - 1, through the rest of cf's
 * epilogue into the channels-first dst. */
void gemm_conv_stage_src(const gemm_conv_conf_t *cf, const float *src,
                         tsr_dim_t n0, tsr_dim_t images, int part, int nparts,
                         float *copy);
void gemm_conv_unstage_dst(const gemm_conv_conf_t *cf,
                           const tsr_epilogue_rt_t *rt, const float *copy,
                           tsr_dim_t n0, tsr_dim_t r0, tsr_dim_t r1,
                           tsr_dim_t oc0, tsr_dim_t oc1, int part, int nparts,
                           float *dst);

/* Stores the m x ncols accumulators at acc (row stride acc_ld) of GEMM
 * rows sp0.. of image n (continuing into the next images under
 * batch_rows), dst channels oc.., through the epilogue into a
 * channels-last dst: rows the epilogue does not tell apart in one call. */
void gemm_conv_store_rows(const gemm_conv_conf_t *cf,
                          const tsr_epilogue_rt_t *rt, float *acc,
                          int64_t acc_ld, tsr_dim_t n, tsr_dim_t sp0,
                          tsr_dim_t oc, int64_t m, int64_t ncols, void *dst);
/* The same into a channels-first dst: m rows of accumulators, output
 * channels oc.., each ncols points from sp0 of image n. */
void gemm_conv_store_cf_rows(const gemm_conv_conf_t *cf,
                             const tsr_epilogue_rt_t *rt, float *acc,
                             int64_t acc_ld, tsr_dim_t n, tsr_dim_t oc,
                             tsr_dim_t sp0, int64_t m, int64_t ncols,
                             void *dst);
/* The same from s32 accumulators (converted to f32 first); work is room
 * for m * ncols floats. */
void gemm_conv_store_rows_s32(const gemm_conv_conf_t *cf,
                              const tsr_epilogue_rt_t *rt, const int32_t *acc,
                              int64_t acc_ld, tsr_dim_t n, tsr_dim_t sp0,
                              tsr_dim_t oc, int64_t m, int64_t ncols, void *dst,
                              float *work);

/* Points per image up to which creation looks at each output point (the
 * padding order, whether cut tiles pay): beyond it neither is tried, so
 * that creation stays cheap for any size. Such images have too thin a
 * border for either to pay, unless padded beyond their own size. */
#define GEMM_CONV_ORDER_MAX_SP ((tsr_dim_t)1 << 16)

/* An order of the output points of `images` images for a GEMM that reads
 * the source by taps and leaves out the taps a whole tile of mr rows reads
 * in zero padding: GEMM row i of such a run of images is point order[i]
 * (image order[i] / SP). malloc'd (the caller frees it); NULL when the
 * natural order does as well, or KS > 64 (gemm_conv_point_order.c). */
int32_t *gemm_conv_padding_order(const gemm_conv_conf_t *cf, int mr,
                                 tsr_dim_t images);

/* GEMM row q's point (counted from the item's image, as
 * gemm_conv_point_of counts): q itself, or through the padding order of
 * the points of a run of order_rows / SP images (NULL: the natural
 * order). */
static inline tsr_dim_t gemm_conv_ordered_point(const gemm_conv_conf_t *cf,
                                                const int32_t *order,
                                                tsr_dim_t q) {
    const tsr_dim_t run = cf->order_rows;
    return order ? q / run * run + order[q % run] : q;
}

/* Where the last listed tile of one thread's item ended: the point of
 * row `m` (relative to the item's sp0), so that the next tile, which
 * usually starts there, needs no divisions to find its first point. */
typedef struct {
    int64_t m;
    gemm_conv_point_t p;
} gemm_conv_tap_cursor_t;

/* The source rows of one item's GEMM read by taps (gemm_conv_taps.c):
 * image n, group g, points from sp0, elements of elem_size bytes. Points
 * in the padding read `pad`, the group's ICg values of the padding: zeros
 * (taps wholly in the padding then add nothing and are left out) or, for
 * int8, the source zero points. `cursor` (NULL: none; only where a single
 * thread lists the item's tiles) speeds up tiles listed in order. */
typedef struct {
    const gemm_conv_conf_t *cf;
    const char *src_g; /* image 0, first channel of group g */
    size_t elem_size;
    const void *pad;
    int pad_is_zero;
    tsr_dim_t n, sp0;
    const int32_t *order; /* the rows' point order; NULL: natural */
    gemm_conv_tap_cursor_t *cursor;
} gemm_conv_tap_rows_t;

/* tsr_gemm_tap_rows_fn over a gemm_conv_tap_rows_t: the taps (kd, kh, kw)
 * of the m points from m0 (with zero padding, those some of them read
 * inside the source), each with the points' rows. */
int64_t gemm_conv_tap_rows(const void *ctx, int64_t m0, int64_t m, int mr,
                           int32_t *taps, const void **rows);

/* The taps GEMM row q's point reads inside the source, as bits (bit t
 * for tap t in the kernel walk kd, kh, kw; KS <= 64); q counted as
 * gemm_conv_ordered_point counts it (order NULL: the natural order). */
uint64_t gemm_conv_row_point_taps(const gemm_conv_conf_t *cf,
                                  const int32_t *order, tsr_dim_t q);

/* tsr_gemm_row_taps_fn over a gemm_conv_tap_rows_t: the taps row m's
 * point reads (all of them where the padding is not zero). */
uint64_t gemm_conv_row_tap_mask(const void *ctx, int64_t m);

/* The dst offset (in elements) of each of the len GEMM rows from sp0 of
 * image n, group g, in the point order `order`, into row_off. */
void gemm_conv_ordered_dst_rows(const gemm_conv_conf_t *cf,
                                const int32_t *order, tsr_dim_t n, tsr_dim_t g,
                                tsr_dim_t sp0, tsr_dim_t len, int64_t *row_off);

/* Kernel rows as taps (gemm_conv_row_taps.c). The rows of one item's
 * GEMM: points from sp0 of one image, reading the window `win` whose
 * first row is source row ih0. */
typedef struct {
    const gemm_conv_conf_t *cf;
    const float *win;
    tsr_dim_t ih0, sp0;
} gemm_conv_row_taps_t;

/* 1 when the f32 layer may go by kernel rows (plan_items done): a dense
 * channels-last source with few channels, one group, 2D or 1D, no
 * dilation along w, more than one column of taps. */
int gemm_conv_row_taps_ok(const gemm_conv_conf_t *cf);
/* 1 when the window of zero-padded source rows that out_rows output rows
 * read (elements of esize bytes) has a size that fits (no overflow) and
 * stays near the source image's (the padding or the rows a stride skips
 * would otherwise make it far larger than the data). */
int gemm_conv_window_fits(const gemm_conv_conf_t *cf, tsr_dim_t out_rows,
                          size_t esize);
/* Floats of the window of an item of up to chunk_sp points. */
size_t gemm_conv_row_window_floats(const gemm_conv_conf_t *cf,
                                   tsr_dim_t chunk_sp);
/* Copies the source rows the len points from sp0 of image n read, zero
 * padded, into win, and sets rt for gemm_conv_row_tap_rows. */
void gemm_conv_row_window(const gemm_conv_conf_t *cf, const float *src,
                          tsr_dim_t n, tsr_dim_t sp0, tsr_dim_t len, float *win,
                          gemm_conv_row_taps_t *rt);
/* tsr_gemm_tap_rows_fn over a gemm_conv_row_taps_t: tap kh is kernel row
 * kh, KW * ICg values per point. */
int64_t gemm_conv_row_tap_rows(const void *ctx, int64_t m0, int64_t m, int mr,
                               int32_t *taps, const void **rows);

/* Layout helpers (gemm_conv_layout.c). */

/* Strides and origins of the (plain, resolved) src and dst; 0 when the
 * dst spatial points are not equally spaced (the GEMM's rows must be). */
int gemm_conv_data_init(gemm_conv_conf_t *cf, const tsr_memory_desc_t *src,
                        const tsr_memory_desc_t *dst);

/* A bias left "any" becomes dense 1D, in its own data type. */
tsr_status_t gemm_conv_resolve_bias(tsr_memory_desc_t *bia);

/* The epilogue of the pd's resolved dst and bias, with ep_identity,
 * ep_bias_only and ep_uniform_sp. */
tsr_status_t gemm_conv_epilogue_init(const struct tsr_primitive_desc *pd,
                                     gemm_conv_conf_t *cf);

/* Plain (unblocked) layout of data type dt. */
int gemm_conv_md_is_plain(const tsr_memory_desc_t *md, tsr_data_type_t dt);

/* Fills cf->sh and the derived sizes (DD.., SP, KS, K). */
void gemm_conv_sizes_init(gemm_conv_conf_t *cf,
                          const struct tsr_primitive_desc *pd);

/* Resolves "any": channels-last data (acdb...) or, for weights, [g] kd kh
 * kw i o when the dst is channels-last (K x OC, OC contiguous) and the
 * logical order (goihw) otherwise. Set layouts are kept. */
tsr_status_t gemm_conv_resolve_any(tsr_memory_desc_t *md, int is_weights,
                                   int with_groups, int dst_cl);

/* Strides over n, c, d, h, w of a plain data md (into s[CONV_NDIMS]). */
void gemm_conv_data_strides(const tsr_memory_desc_t *md, tsr_dim_t *s);

/* 1 when the flattened spatial index sp of a data tensor with spatial
 * sizes (D, H, W) and strides s sits at offset sp * s[CONV_W]. */
int gemm_conv_spatial_linear(const tsr_dim_t *s, tsr_dim_t D, tsr_dim_t H,
                             tsr_dim_t W);

/* Sets kic, wei_oc_rows, wei_ld, wei_g_stride and wei_off0 from the plain
 * weights md; 0 when the weights are no GEMM operand. */
int gemm_conv_weights_form(gemm_conv_conf_t *cf, const tsr_memory_desc_t *md,
                           int with_groups);

/* The weights form (needs sizes and dst_cl): for "any", or weights
 * already so, the GEMM's packed B panels of nr output channels (the last
 * one zero-padded), each over the group's K (kernel point outer, input
 * channel inner) in blocks of kblk input channels, element (k, oc) of a
 * group at
 *   oc / nr * rnd_up(K, kblk) * nr + (k / kblk * nr + oc % nr) * kblk +
 *   k % kblk
 * (gOhwI<nr>o<kblk>i; kblk 1 for f32, 4 for the int8 K quads), when nr > 0
 * and ICg is a multiple of kblk: wei_panels and its fields are then set,
 * and the wei_* fields describe the panels' plain copy. Otherwise plain
 * weights ("any" resolved for dst_cl) as gemm_conv_weights_form takes
 * them. 0 when the weights are no GEMM operand. */
int gemm_conv_weights_init(gemm_conv_conf_t *cf, tsr_memory_desc_t *wei,
                           int with_groups, tsr_data_type_t dt, int nr,
                           int kblk);

/* The element index of weight (k, oc) in B panels of nr columns over kpad
 * K values (a multiple of kb) in groups of kb: panel oc / nr, then group
 * k / kb, then the group's kb values of each column. */
static inline tsr_dim_t gemm_conv_panel_index(tsr_dim_t nr, tsr_dim_t kb,
                                              tsr_dim_t kpad, tsr_dim_t k,
                                              tsr_dim_t oc) {
    return oc / nr * kpad * nr + (k / kb * nr + oc % nr) * kb + k % kb;
}

/* The panels at `panels` (the weights data) into their plain copy. */
void gemm_conv_unpack_panels(const gemm_conv_conf_t *cf, const void *panels,
                             size_t esize, void *plain);

/* The weights scales mask over (g, oc) or (oc) as the epilogue's
 * (c / div) % mod of dst channel c; mod 0 when it has no such form. */
void gemm_conv_wei_scale_form(const struct tsr_primitive_desc *pd,
                              const gemm_conv_conf_t *cf, int64_t *div,
                              int64_t *mod);

/* Windows of zero-padded source rows (f32 kernel-row taps and int8
 * windows): the pixels of a window row, every source column some point
 * reads; the source rows the window of out_rows output rows holds; and
 * the output rows of a chunk of up to chunk_sp points (one more when it
 * starts mid-row). */
static inline tsr_dim_t gemm_conv_window_cols(const gemm_conv_conf_t *cf) {
    return (cf->sh.OW - 1) * cf->sh.KSW + (cf->sh.KW - 1) * cf->DW + 1;
}
static inline tsr_dim_t gemm_conv_window_rows(const gemm_conv_conf_t *cf,
                                              tsr_dim_t out_rows) {
    return (out_rows - 1) * cf->sh.KSH + (cf->sh.KH - 1) * cf->DH + 1;
}
static inline tsr_dim_t gemm_conv_chunk_out_rows(const gemm_conv_conf_t *cf,
                                                 tsr_dim_t chunk_sp) {
    return TSR_MIN(tsr_div_up(chunk_sp, cf->sh.OW) + 1, cf->sh.OH);
}

/* int8 source windows (gemm_conv_s8_window.c). A window for the len
 * points from sp0 of one image, from `base`: with point taps the GEMM's A
 * from `a` (one pixel of ICg bytes per row) and `rows` GEMM rows; the
 * first point at (oh0, ow0). */
typedef struct {
    const void *base, *a;
    tsr_dim_t rows, oh0, ow0;
} gemm_conv_window_t;

/* 1 when the layer's geometry allows a window (sizes, strides and kic
 * set): 2D or 1D, stride 1, several taps, no more than the GEMM's taps. */
int gemm_conv_window_ok(const gemm_conv_conf_t *cf);
/* The same for kernel-row taps (row_taps), any stride: several kernel
 * columns, no dilation along w, a kernel row of at most max_k_tap bytes
 * rounded up to whole quads. */
int gemm_conv_row_window_ok(const gemm_conv_conf_t *cf, int64_t max_k_tap);
/* The most GEMM rows, and bytes, of the window of an item of up to
 * chunk_sp points. */
tsr_dim_t gemm_conv_window_max_rows(const gemm_conv_conf_t *cf,
                                    tsr_dim_t chunk_sp);
size_t gemm_conv_window_bytes(const gemm_conv_conf_t *cf, tsr_dim_t chunk_sp);
/* The taps (KH * KW of them, or KH with row_taps) with their byte offsets
 * from a point's row in off (TSR_GEMM_MAX_TAPS entries). */
tsr_gemm_s8_tap_offs_t gemm_conv_window_taps(const gemm_conv_conf_t *cf,
                                             int64_t *off);
/* With row_taps: the A row of output point (oh, ow) in the window. */
const void *gemm_conv_window_row_a(const gemm_conv_conf_t *cf,
                                   const gemm_conv_window_t *wnd, tsr_dim_t oh,
                                   tsr_dim_t ow);
/* Copies the source rows the len points from sp0 read into buf, padding
 * with the pad row (ICg bytes; NULL: zeros); src_g is the image's first
 * channel of the group. Only part `part` of `nparts` of the window's rows
 * (the threads of a team each copy theirs); the window is returned
 * whole. */
gemm_conv_window_t gemm_conv_window_fill(const gemm_conv_conf_t *cf,
                                         const void *src_g, const void *pad,
                                         tsr_dim_t sp0, tsr_dim_t len, int part,
                                         int nparts, void *buf);
/* The point (spatial index in its image) of GEMM row q, -1 for a padded
 * one. */
tsr_dim_t gemm_conv_window_point(const gemm_conv_conf_t *cf,
                                 const gemm_conv_window_t *wnd, tsr_dim_t q);
/* The dst offset of each GEMM row (-1: a padded point) into row_off, for
 * part `part` of `nparts` of the rows. */
void gemm_conv_window_dst_rows(const gemm_conv_conf_t *cf,
                               const gemm_conv_window_t *wnd, tsr_dim_t n,
                               tsr_dim_t g, int part, int nparts,
                               int64_t *row_off);

/* 1 when the GEMM can read the source in place (needs src_s, sizes): a 1x1
 * convolution with stride 1 and no padding over a source whose points and
 * channels are each equally spaced. */
int gemm_conv_src_direct(const gemm_conv_conf_t *cf);

/* 1 when the GEMM rows can run on across images (batch_rows): a
 * channels-last dst, rows that step at least a dst row of channels, and
 * images that continue the points one point stride apart, in the dst and
 * in a channels-last source read in place. */
int gemm_conv_rows_batchable(const gemm_conv_conf_t *cf);

/* Logical dst point (n, oc, spatial of sp) into pos, and its offset. */
void gemm_conv_dst_point(const gemm_conv_conf_t *cf, tsr_dim_t n, tsr_dim_t oc,
                         tsr_dim_t sp, tsr_dim_t *pos);
tsr_dim_t gemm_conv_dst_offset(const gemm_conv_conf_t *cf, tsr_dim_t n,
                               tsr_dim_t oc, tsr_dim_t sp);

#endif
