/* "gemm:s8": forward int8 convolution (u8/s8 source, s8 weights, s32
 * accumulation) on the int8 GEMM engine, dst f32, bf16, f16, s32, s8 or u8.
 *
 * Per image n and group g it is the channels-last GEMM of gemm_conv_f32.h,
 * C[sp][oc] = col[sp][k] * W[k][oc] (W may also be stored OC x K), with
 * the s32 tiles of C never stored: each goes from the GEMM's callback,
 * converted to f32, through the shared epilogue straight into dst, so the
 * dst may have any plain layout whose spatial points are equally spaced.
 * A channels-last u8 source with several taps skips col: the GEMM reads
 * it by taps (tsr_gemm_s8_args_t.a_taps), each point's row of ICg values
 * per tap where it lies, and leaves out the taps a whole tile of points
 * reads in zero padding. With zero padding the points of an image may go
 * to the GEMM in an order that keeps those reading the same taps together
 * (gemm_conv_padding_order), so that tiles leave the padding out almost
 * exactly; such tiles are stored run by run of consecutive points.
 *
 * Weights for "any" are laid out as the GEMM's packed B panels
 * (gOhwI<nr>o4i, when ICg % 4 == 0) by the reorder into them, so no
 * execution packs them: with few output points (the late layers at mb1)
 * packing cost about a fifth of the time. An execution that cannot read
 * them in place (full-range weights on the AVX2 quad kernel, zero points
 * that need single weights) unpacks them into the scratchpad first.
 *
 * Source zero point zp (common or per input channel): the reference sums
 * (src - zp) * w over the input points inside the source only. Folded into
 * the GEMM as sum src * w + col_offset, col_offset[oc] = -sum_k zp(k) *
 * W[k][oc] (modulo 2^32 like the sums; for a common zp, -zp times the
 * weights' sums that weights laid out for "any" carry, written once by the
 * reorder into them; else summed once per execution), this
 * is exact when every padded point of col holds zp itself: the im2col
 * writes zp into padding, so padding contributes (zp - zp) * w = 0. A zero
 * point the source type cannot hold (e.g. 300 for u8) is padded with 0
 * instead and the missing zp * w of the padded points is added back per
 * output point at the store.
 *
 * Work is planned as in gemm:f32: items (n, g, chunk of spatial points,
 * running on across small images of an equally spaced batch), whole items
 * per thread when there are many, else one item at a time spread over all
 * threads by the GEMM. With few images the spatial points are cut finer
 * when the pieces stay big enough, so that each thread still runs whole
 * items of its own: one parallel region and no barrier per execution. Integer
 * sums are exact and the epilogue is elementwise, so results do not depend on
 * the thread count or the cut. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/convolution_pd.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/gemm/gemm_s8.h"

/* im2col chunks are kept near this size so they stay in the caches. */
#define COL_CHUNK_BYTES ((size_t)1024 << 10)
/* Gathered items are cut finer still (GEMM_CONV_MIN_OWN_COL_SPLIT_SP) when
 * the weights, which every cut reads whole, stay in a core's L2: on AMX,
 * 2 threads, u8s8u8 res5a_branch2a (49 points, 512 KiB of weights) cut in
 * 25 + 24 points: 2200 -> 4100 GOPS, one shared GEMM costing a second
 * parallel region and B panels past L1; res5a_branch1 (2 MiB) loses
 * 3500 -> 2800 when cut so. */
#define SMALL_WEI_MIN_SPLIT_SP 16
#define SMALL_WEI_BYTES ((int64_t)1 << 20)

typedef struct {
    /* Geometry, layouts (cf.dst_cl is always 1: GEMM rows are spatial
     * points), the epilogue and the work plan. */
    gemm_conv_conf_t cf;
    tsr_data_type_t src_dt;
    int with_src_zp, src_zp_per_ic;
    /* The weights md carries the sums of each (group,) output channel's
     * weights (its extra data): no execution sums the weights. */
    int wei_sums;
    /* Scratchpad: col_offset (G * OCg s32) and the pad row of every input
     * channel (IC source elements) first, then the unpacked weights, then
     * the thread slices. */
    size_t shared_bytes, col_bytes;
    /* With cf.src_window: the taps, each with its byte offset in the
     * window (window_tap_off, which window_taps.off points at once
     * copied into an execution). */
    int64_t window_tap_off[TSR_GEMM_MAX_TAPS];
    tsr_gemm_s8_tap_offs_t window_taps;
    /* Kernel-row taps of KW * ICg bytes not whole quads: the weights go
     * to the GEMM as prepacked panels with each tap rounded up to whole
     * quads by zero rows (and their column sums), written per execution
     * at row_b_off of the scratchpad, row_b_g_bytes per group. */
    int row_b_pad;
    size_t row_b_off, row_b_g_bytes;
} s8_conf_t;

static int dt_is_int8(tsr_data_type_t dt) {
    return dt == tsr_u8 || dt == tsr_s8;
}

/* Chunking, threading mode and scratchpad (per thread: col and GEMM
 * scratch, which also holds the GEMM's tiles). */
static void plan_work(s8_conf_t *sc) {
    gemm_conv_conf_t *cf = &sc->cf;
    /* Col rows padded to whole K quads, so the GEMM reads them in place
     * (tsr_gemm_s8_args_t.a_rows_padded). */
    cf->col_ld = tsr_rnd_up(cf->K, 4);
    /* Small cuts pay through col (see GEMM_CONV_MIN_OWN_COL_SPLIT_SP) or a
     * window; a GEMM by taps lost by them. Smaller ones pay with small
     * weights, except through a window: each cut of it computes its own
     * padded points and ragged row tile (res5a_branch2b, 49 points, loses
     * 4950 -> 3750 GOPS cut in 25 + 24). */
    const int own_col = !cf->direct && !cf->taps_ok && cf->wei_panels;
    const int small_cuts = own_col && !cf->src_window &&
                           cf->col_ld * cf->sh.OCg <= SMALL_WEI_BYTES;
    gemm_conv_plan_items(cf, (size_t)cf->col_ld, COL_CHUNK_BYTES,
                         small_cuts ? SMALL_WEI_MIN_SPLIT_SP
                         : own_col  ? GEMM_CONV_MIN_OWN_COL_SPLIT_SP
                                    : GEMM_CONV_MIN_SPLIT_SP);
    const tsr_dim_t col_bytes =
            cf->direct ? 0 : md_mul_elems(cf->chunk_sp, cf->col_ld);
    sc->col_bytes = (size_t)tsr_rnd_up(TSR_MAX(col_bytes, 0), 64);
    /* A window's GEMM rows include its padded points; an execution that
     * cannot use the window runs im2col on chunk_sp rows. */
    const tsr_dim_t gemm_rows =
            cf->src_window
                    ? TSR_MAX(cf->chunk_sp,
                              gemm_conv_window_max_rows(cf, cf->chunk_sp))
                    : cf->chunk_sp;
    /* A size beyond the element limit makes the booking refuse (below). */
    const int sizes_fit = col_bytes >= 0 && gemm_rows <= TSR_MAX_ELEMS;
    if (cf->src_window)
        sc->col_bytes = TSR_MAX(
                sc->col_bytes,
                (size_t)tsr_rnd_up(
                        (int64_t)gemm_conv_window_bytes(cf, cf->chunk_sp), 64));
    const int gemm_nthr = cf->per_thread_items ? 1 : cf->nthr;
    /* Kernel-row taps rounded up to whole quads make K longer. */
    const tsr_dim_t gemm_k =
            cf->src_window ? TSR_MAX(cf->K, sc->window_taps.ntaps *
                                                    sc->window_taps.k_tap)
                           : cf->K;
    const size_t gemm_scratch = tsr_gemm_s8_scratch_size(gemm_rows, cf->sh.OCg,
                                                         gemm_k, 1, gemm_nthr);
    const size_t dst_rows_bytes =
            sizes_fit && (cf->point_order || cf->src_window)
                    ? (size_t)tsr_rnd_up((int64_t)sizeof(int64_t) * gemm_rows,
                                         64)
                    : 0;
    /* SIZE_MAX (the GEMM's sizes overflow) makes the booking refuse. */
    cf->gemm_bytes = gemm_scratch > SIZE_MAX - 64
                             ? SIZE_MAX
                             : (gemm_scratch + 63) / 64 * 64;
    if (!sizes_fit ||
        !tsr_add_size(sc->col_bytes, cf->gemm_bytes, &cf->thread_bytes) ||
        !tsr_add_size(cf->thread_bytes, dst_rows_bytes, &cf->thread_bytes))
        cf->thread_bytes = SIZE_MAX;
    sc->shared_bytes =
            sc->with_src_zp || sc->cf.col_flip_sign
                    ? (size_t)tsr_rnd_up((int64_t)sizeof(int32_t) * cf->sh.G *
                                                         cf->sh.OCg +
                                                 cf->sh.G * cf->sh.ICg,
                                         64)
                    : 0;
    if (sc->row_b_pad) {
        const int64_t nr = tsr_gemm_s8_prepacked_nr();
        sc->row_b_g_bytes =
                (size_t)(tsr_rnd_up(cf->sh.OCg, nr) * sc->window_taps.ntaps *
                         sc->window_taps.k_tap);
        sc->row_b_off = sc->shared_bytes;
        sc->shared_bytes += (size_t)tsr_rnd_up(
                (int64_t)(sc->row_b_g_bytes + sizeof(int32_t) * cf->sh.OCg) *
                        cf->sh.G,
                64);
    }
}

/* Source zero points: none, common, or per input channel. */
static int src_zp_ok(s8_conf_t *sc, const struct tsr_primitive_attr *attr) {
    const tsr_runtime_q_t *zp = &attr->zero_points[TSR_QARG_SRC];
    sc->with_src_zp = zp->set;
    sc->src_zp_per_ic = zp->set && zp->mask == (1 << 1);
    return !zp->set || zp->mask == 0 || zp->mask == (1 << 1);
}

/* 1 when the GEMM's product steps over a window's taps (ICg bytes each)
 * are whole, or short by no more than a quarter: the im2col they save
 * costs more (AlexNet conv2, 48 channels per group: half its time). */
static int window_steps_pay(const gemm_conv_conf_t *cf) {
    const int64_t k_tap = cf->sh.ICg;
    if (k_tap % 4)
        return 0;
    const int64_t step = tsr_gemm_s8_tap_offs_step(k_tap);
    return k_tap % step == 0 && step >= 48;
}

static tsr_status_t conf_init(s8_conf_t *sc, struct tsr_primitive_desc *pd) {
    gemm_conv_conf_t *cf = &sc->cf;
    memset(sc, 0, sizeof(*sc));
    if (!conv_is_fwd_direct(pd))
        return tsr_unimplemented;
    const struct tsr_primitive_attr *attr = &pd->attr;
    if (attr->zero_points[TSR_QARG_WEIGHTS].set || !src_zp_ok(sc, attr))
        return tsr_unimplemented;
    tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC],
                      *wei = &pd->md[TSR_MD_WEIGHTS];
    tsr_memory_desc_t *bia = &pd->md[TSR_MD_BIAS], *dst = &pd->md[TSR_MD_DST];
    const int with_groups = conv_with_groups(pd);
    const int with_bias = conv_with_bias(pd);
    if (!dt_is_int8(src->data_type) ||
        !op_data_types_ok(src->data_type, wei->data_type,
                          with_bias ? bia->data_type : tsr_f32, dst->data_type))
        return tsr_unimplemented;
    sc->src_dt = src->data_type;

    gemm_conv_sizes_init(cf, pd);
    cf->dst_cl = 1;
    const int wei_any = md_is_any(wei);
    if (gemm_conv_resolve_any(dst, 0, 0, 0) != tsr_success ||
        gemm_conv_resolve_any(src, 0, 0, 0) != tsr_success ||
        !gemm_conv_md_is_plain(src, src->data_type) ||
        !gemm_conv_md_is_plain(dst, dst->data_type) ||
        !conv_src_offsets_fit(pd) ||
        !gemm_conv_weights_init(cf, wei, with_groups, tsr_s8,
                                tsr_gemm_s8_prepacked_nr(), 4))
        return tsr_unimplemented;
    /* Weights laid out here carry their sums, written by the reorder into
     * them; user weights may carry them too. */
    const int comp_mask = with_groups ? 3 : 1;
    if (wei_any) {
        wei->extra.flags = tsr_memory_extra_flag_compensation;
        wei->extra.compensation_mask = comp_mask;
    }
    sc->wei_sums = wei->extra.compensation_mask == comp_mask &&
                   md_extra_comp_count(wei) == cf->sh.G * cf->sh.OCg;
    /* In place, an s8 source needs the sums of the prepacked weights. */
    if (cf->wei_panels && !sc->wei_sums && sc->src_dt == tsr_s8)
        return tsr_unimplemented;
    /* The epilogue stores rows of the tile at a fixed distance. */
    if (!gemm_conv_data_init(cf, src, dst))
        return tsr_unimplemented;
    cf->dst_sp_step = cf->dst_s[CONV_W];
    if (with_bias && gemm_conv_resolve_bias(bia) != tsr_success)
        return tsr_unimplemented;
    cf->src_cl = cf->src_s[CONV_C] == 1;
    /* An s8 source is gathered into col as u8 (x + 128), even for a 1x1
     * convolution over a channels-last source, whose gather is then a row
     * copy: the GEMM reads col in place and its kernels store into dst,
     * where packing with the shift runs the packed kernel and a separate
     * store (res2a_branch2a s8s8s8 on two threads: 248 -> 282 GOPS). The
     * shift joins the source zero point (zp + 128). A kernel that shifts
     * s8 rows itself, or multiplies them as they are, reads them in place
     * instead (res2a_branch2a s8s8s8 with the VNNI kernel: 608 -> 674
     * GOPS, res4b_branch2a 808 -> 908). */
    cf->direct =
            gemm_conv_src_direct(cf) && !(sc->src_dt == tsr_s8 && cf->src_cl &&
                                          !tsr_gemm_s8_reads_s8_rows());
    /* Whether a single tap (strided 1x1) goes by taps is the kernel's
     * call (tsr_gemm_s8_taps_supported). An s8 source goes by taps where
     * the kernel shifts s8 rows itself: nothing gathered or flipped, but
     * every tap listed, padding included (the shift's compensation covers
     * all of K); with a source zero point it keeps the gather. */
    cf->taps_ok = !cf->direct && cf->kic && cf->src_cl && cf->wei_panels &&
                  tsr_gemm_s8_taps_supported(cf->KS, cf->sh.ICg) &&
                  (sc->src_dt == tsr_u8 ||
                   (!sc->with_src_zp && tsr_gemm_s8_taps_s8_supported()));
    /* A kernel that takes tap offsets (AMX) reads a padded window of the
     * source instead of im2col where its steps over a tap pay (ResNet-50
     * 3x3 layers on two threads: +40% to +70%). The s8 values go as they
     * are, and so does col when an execution cannot use the window (a zero
     * point the source type cannot hold). */
    cf->src_window = gemm_conv_window_ok(cf) && window_steps_pay(cf) &&
                     tsr_gemm_s8_tap_offs_supported(cf->KS, cf->sh.ICg);
    if (cf->src_window)
        cf->taps_ok = 0;
    /* A kernel that multiplies s8 rows as they are (AMX) takes col in s8
     * too: no flip, and no compensation at every tile's start. */
    cf->col_flip_sign = sc->src_dt == tsr_s8 && !cf->direct && !cf->taps_ok &&
                        !cf->src_window &&
                        (sc->with_src_zp || !tsr_gemm_s8_reads_s8_rows());

    const tsr_status_t st = gemm_conv_epilogue_init(pd, cf);
    if (st != tsr_success)
        return st;
    if (cf->taps_ok && sc->src_dt == tsr_u8) {
        cf->point_order =
                gemm_conv_padding_order(cf, tsr_gemm_s8_taps_row_tile(), 1);
        cf->order_rows = cf->SP;
    }
    plan_work(sc);
    /* Few input channels (first layers), where im2col copies short runs
     * and each point's K is small: a tap per kernel row of the window
     * (ResNet-50 conv1: KW * IC = 21 bytes, rounded up to 24), one GEMM
     * per output row. Items never span images with a window. */
    if (!cf->src_window && !cf->batch_rows && cf->sh.ICg < 16 &&
        gemm_conv_row_window_ok(cf, 64) &&
        tsr_gemm_s8_tap_offs_supported(cf->sh.KH,
                                       tsr_rnd_up(cf->sh.KW * cf->sh.ICg, 4))) {
        cf->src_window = cf->row_taps = 1;
        cf->taps_ok = 0;
        cf->col_flip_sign = 0;
    }
    if (cf->src_window) {
        sc->window_taps = gemm_conv_window_taps(cf, sc->window_tap_off);
        sc->row_b_pad = cf->row_taps && (cf->sh.KW * cf->sh.ICg) % 4 != 0;
        plan_work(sc);
    }
    return tsr_success;
}

static tsr_status_t gemm_conv_s8_init(struct tsr_primitive_desc *pd) {
    s8_conf_t *sc = malloc(sizeof(*sc));
    if (!sc)
        return tsr_out_of_memory;
    const tsr_status_t st = conf_init(sc, pd);
    if (st != tsr_success) {
        free(sc);
        return st;
    }
    const int slices = sc->cf.per_thread_items ? sc->cf.nthr : 1;
    size_t threads_bytes;
    if (sc->cf.thread_bytes == SIZE_MAX ||
        !tsr_mul_size(sc->cf.thread_bytes, (size_t)slices, &threads_bytes) ||
        !tsr_add_size(threads_bytes, sc->shared_bytes + sc->cf.panel_copy_bytes,
                      &pd->scratchpad_size)) {
        free(sc->cf.point_order);
        free(sc);
        return tsr_unimplemented;
    }
    pd->impl_data = sc;
    return tsr_success;
}

static void gemm_conv_s8_fini(struct tsr_primitive_desc *pd) {
    s8_conf_t *sc = pd->impl_data;
    if (sc)
        free(sc->cf.point_order);
    free(sc);
}

/* The weights of group g as the K x OCg matrix W: element (k, oc) at
 * k * k_step + oc * oc_step. */
typedef struct {
    const int8_t *w;
    tsr_dim_t k_step, oc_step;
} wei_view_t;

static wei_view_t wei_view(const gemm_conv_conf_t *cf, const int8_t *wei,
                           tsr_dim_t g) {
    wei_view_t v = {wei + cf->wei_off0 + g * cf->wei_g_stride, cf->wei_ld, 1};
    if (cf->wei_oc_rows) {
        v.k_step = 1;
        v.oc_step = cf->wei_ld;
    }
    return v;
}

/* Runtime source zero points of one execution, and the shift of an s8
 * source gathered as u8 (0 or 128): col holds x + shift, so the GEMM
 * subtracts zp + shift through col_offset. */
typedef struct {
    const int32_t *zp; /* common (1 value) or per channel (IC values);
                          NULL: none */
    int per_ic;
    int32_t shift;
    /* Padding holds zp + shift (col_offset alone is exact); else padding
     * holds the source's 0 (shift) and the store adds zp * w of each
     * padded point back. */
    int padded_with_zp;
} src_zp_t;

static int32_t zp_of(const src_zp_t *z, tsr_dim_t ic) {
    return z->zp ? z->zp[z->per_ic ? ic : 0] : 0;
}

/* What col_offset subtracts for channel ic, modulo 2^32. */
static uint32_t zp_total(const src_zp_t *z, tsr_dim_t ic) {
    return (uint32_t)zp_of(z, ic) + (uint32_t)z->shift;
}

/* col_offset[g * OCg + oc] = -sum_k zp_total(k) * W_g[k][oc], modulo 2^32;
 * from the weights' stored sums (G * OCg, NULL: none) for a common zp. */
static void compute_col_offset(const s8_conf_t *sc, const int8_t *wei,
                               const int32_t *wei_sums, const src_zp_t *z,
                               int32_t *col_offset) {
    const gemm_conv_conf_t *cf = &sc->cf;
    const tsr_dim_t OCg = cf->sh.OCg;
    for (tsr_dim_t g = 0; g < cf->sh.G; g++) {
        int32_t *out = col_offset + g * OCg;
        const wei_view_t v = wei_view(cf, wei, g);
        if (!z->per_ic) {
            tsr_gemm_s8_col_sums(cf->wei_oc_rows, cf->K, OCg, v.w, cf->wei_ld,
                                 wei_sums ? wei_sums + g * OCg : NULL,
                                 (int32_t)(0u - zp_total(z, 0)), out);
            continue;
        }
        for (tsr_dim_t oc = 0; oc < OCg; oc++) {
            uint32_t s = 0;
            for (tsr_dim_t ic = 0; ic < cf->sh.ICg; ic++) {
                const uint32_t zp = zp_total(z, g * cf->sh.ICg + ic);
                uint32_t wsum = 0;
                for (tsr_dim_t kidx = 0; kidx < cf->KS; kidx++)
                    wsum += (uint32_t)(int32_t)
                                    v.w[gemm_conv_k_index(cf, kidx, ic) *
                                                v.k_step +
                                        oc * v.oc_step];
                s -= zp * wsum;
            }
            out[oc] = (int32_t)s;
        }
    }
}

/* Fills the pad row of every input channel with its zero point as col
 * holds it (zp + shift); 0 when one does not fit col's type. */
static int fill_pad_rows(const s8_conf_t *sc, const src_zp_t *z,
                         void *pad_rows) {
    const tsr_dim_t IC = sc->cf.sh.G * sc->cf.sh.ICg;
    const int col_u8 = sc->src_dt == tsr_u8 || z->shift;
    const int64_t lo = col_u8 ? 0 : -128, hi = col_u8 ? 255 : 127;
    for (tsr_dim_t ic = 0; ic < IC; ic++) {
        const int64_t v = (int64_t)zp_of(z, ic) + z->shift;
        if (v < lo || v > hi)
            return 0;
        if (col_u8)
            ((uint8_t *)pad_rows)[ic] = (uint8_t)v;
        else
            ((int8_t *)pad_rows)[ic] = (int8_t)v;
    }
    return 1;
}

/* The epilogue's view of one GEMM call. */
typedef struct {
    const s8_conf_t *sc;
    const tsr_epilogue_rt_t *rt;
    void *dst;
    tsr_dim_t n, g, sp0;
    const src_zp_t *z; /* NULL: nothing to add back at padded points */
    wei_view_t w;
    const int32_t *order;          /* the rows' point order; NULL: natural */
    const gemm_conv_window_t *wnd; /* rows of a window; NULL: none */
} store_ctx_t;

/* sum over the padded points of output point sp (< SP) of zp * W[k][oc], for
 * columns oc0.. of acc (modulo 2^32, added to acc). */
static void add_back_padding(const store_ctx_t *s, tsr_dim_t sp, tsr_dim_t oc0,
                             int64_t n, uint32_t *acc) {
    const gemm_conv_conf_t *cf = &s->sc->cf;
    const gemm_conv_point_t p = gemm_conv_point_of(cf, sp);
    tsr_dim_t id0, ih0, iw0;
    gemm_conv_src_origin(cf, &p, &id0, &ih0, &iw0);
    tsr_dim_t kidx = 0;
    for (tsr_dim_t kd = 0; kd < cf->sh.KD; kd++) {
        const tsr_dim_t id = id0 + kd * cf->DD;
        for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++) {
            const tsr_dim_t ih = ih0 + kh * cf->DH;
            for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++, kidx++) {
                if (gemm_conv_src_inside(cf, id, ih, iw0 + kw * cf->DW))
                    continue;
                for (tsr_dim_t ic = 0; ic < cf->sh.ICg; ic++) {
                    const uint32_t zp =
                            (uint32_t)zp_of(s->z, s->g * cf->sh.ICg + ic);
                    const int8_t *w =
                            s->w.w +
                            gemm_conv_k_index(cf, kidx, ic) * s->w.k_step +
                            oc0 * s->w.oc_step;
                    for (int64_t j = 0; j < n; j++)
                        acc[j] += zp * (uint32_t)(int32_t)w[j * s->w.oc_step];
                }
            }
        }
    }
}

/* The s32 tile plus the padding add-back, as f32 in work (row stride
 * n). */
static void tile_to_f32_add_back(const store_ctx_t *s, const int32_t *tile,
                                 int64_t ld, int64_t m0, int64_t n0, int64_t m,
                                 int64_t n, float *work) {
    enum { RUN = 256 };
    for (int64_t r = 0; r < m; r++) {
        const int32_t *t = tile + r * ld;
        float *f = work + r * n;
        for (int64_t j0 = 0; j0 < n; j0 += RUN) {
            const int64_t cnt = n - j0 < RUN ? n - j0 : RUN;
            uint32_t u[RUN];
            for (int64_t j = 0; j < cnt; j++)
                u[j] = (uint32_t)t[j0 + j];
            add_back_padding(s, (s->sp0 + m0 + r) % s->sc->cf.SP, n0 + j0, cnt,
                             u);
            for (int64_t j = 0; j < cnt; j++)
                f[j0 + j] = (float)(int32_t)u[j];
        }
    }
}

static void store_tile(const void *ctx, const int32_t *tile, int64_t ld,
                       int64_t m0, int64_t n0, int64_t m, int64_t n,
                       float *work) {
    const store_ctx_t *s = ctx;
    const gemm_conv_conf_t *cf = &s->sc->cf;
    const tsr_dim_t oc = s->g * cf->sh.OCg + n0;
    if (s->wnd) {
        /* Runs of consecutive points, the window's padded ones left out. */
        for (int64_t r = 0, run; r < m; r += run) {
            const tsr_dim_t first = gemm_conv_window_point(cf, s->wnd, m0 + r);
            run = 1;
            if (first < 0)
                continue;
            while (r + run < m &&
                   gemm_conv_window_point(cf, s->wnd, m0 + r + run) ==
                           first + run)
                run++;
            gemm_conv_store_rows_s32(cf, s->rt, tile + r * ld, ld, s->n, first,
                                     oc, run, n, s->dst, work);
        }
        return;
    }
    if (s->order) {
        /* Rows in padding order: each run of consecutive points alone. */
        for (int64_t r = 0, run; r < m; r += run) {
            const tsr_dim_t q = s->sp0 + m0 + r;
            const tsr_dim_t first = gemm_conv_ordered_point(cf, s->order, q);
            for (run = 1;
                 r + run < m &&
                 gemm_conv_ordered_point(cf, s->order, q + run) == first + run;
                 run++)
                ;
            gemm_conv_store_rows_s32(cf, s->rt, tile + r * ld, ld, s->n, first,
                                     oc, run, n, s->dst, work);
        }
        return;
    }
    if (!s->z) {
        gemm_conv_store_rows_s32(cf, s->rt, tile, ld, s->n, s->sp0 + m0, oc, m,
                                 n, s->dst, work);
        return;
    }
    tile_to_f32_add_back(s, tile, ld, m0, n0, m, n, work);
    gemm_conv_store_rows(cf, s->rt, work, n, s->n, s->sp0 + m0, oc, m, n,
                         s->dst);
}

/* Thread-local buffers of one slice of the scratchpad: col, the GEMM's
 * scratch, and with the padding order the dst offset of each GEMM row. */
typedef struct {
    void *col, *gemm;
    int64_t *dst_rows;
} slice_t;

static slice_t slice_at(const s8_conf_t *sc, char *slices, int i) {
    char *p = slices + (size_t)i * sc->cf.thread_bytes;
    const slice_t s = {p, p + sc->col_bytes,
                       (int64_t *)(p + sc->col_bytes + sc->cf.gemm_bytes)};
    return s;
}

typedef struct {
    const s8_conf_t *sc;
    const uint8_t *src; /* u8 or s8 elements */
    const int8_t *wei;
    void *dst;
    const tsr_epilogue_rt_t *rt;
    src_zp_t z;
    const int32_t *col_offset; /* G * OCg, NULL without src zero point or
                                  shift */
    const int32_t *wei_sums;   /* G * OCg from the weights' extra, or NULL */
    const uint8_t *pad_rows;   /* IC elements, NULL: zeros */
    int wei_in_place;          /* wei: the prepacked weights (group 0) */
    int taps;                  /* the GEMM reads the source by taps */
    int window;                /* ... or a padded window of it */
    /* With row_b_pad: the padded weights panels and their sums. */
    const int8_t *row_b;
    const int32_t *row_b_sums;
    char *slices; /* the thread slices of the scratchpad */
} exec_t;

/* The data operand of one item: col, or the source itself for direct 1x1
 * (points at stride sw, channels at stride sc: whichever is 1 is the
 * contiguous dim of the GEMM operand). */
static void set_data_operand(const exec_t *e, const slice_t *sl, tsr_dim_t n,
                             tsr_dim_t g, tsr_dim_t sp0,
                             tsr_gemm_s8_args_t *a) {
    const gemm_conv_conf_t *cf = &e->sc->cf;
    a->A = sl->col;
    a->transa = 0;
    a->lda = cf->col_ld;
    a->a_rows_padded = !cf->direct; /* col rows: see plan_work */
    if (!cf->direct)
        return;
    const tsr_dim_t sw = cf->src_s[CONV_W], sc = cf->src_s[CONV_C];
    a->A = e->src + cf->src_off0 + n * cf->src_s[CONV_N] + g * cf->sh.ICg * sc +
           sp0 * sw;
    a->transa = sc != 1;
    a->lda = sc == 1 ? sw : sc;
    /* Single rows or columns: any leading dimension the GEMM accepts. */
    const int64_t a_cols = a->transa ? a->M : a->K;
    if (a->lda < a_cols)
        a->lda = a_cols;
}

/* The common epilogue of item `it` when the GEMM's kernels may store its
 * rows straight from their registers: channels at stride 1 (the rows are
 * equally spaced in dst, also across images: items span images only
 * under batch_rows, which requires it); `common` then has the group's
 * first channel as column 0. */
static int common_store_ok(const exec_t *e, const gemm_conv_item_t *it,
                           tsr_epilogue_common_t *common) {
    const gemm_conv_conf_t *cf = &e->sc->cf;
    /* Points at least a row of channels apart: a dst of one point per
     * image can have channel stride 1 in a channels-first tag. */
    if (cf->dst_s[CONV_C] != 1 || cf->dst_sp_step < cf->sh.OCg)
        return 0;
    tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
    pos[0] = it->n;
    pos[1] = it->g * cf->sh.OCg;
    return tsr_epilogue_common_init(&cf->ep, e->rt, pos, common);
}

/* One item: gather (unless direct), then the GEMM with the epilogue. When
 * `team` is set the item is spread over all threads by the GEMM; with
 * team_nthr > 1 the caller runs it on its team of that many threads,
 * this one being team_ithr (a point window only: each copies its part of
 * the window, and all multiply once all are copied). */
static tsr_status_t run_item_part(const exec_t *e, int ithr, tsr_dim_t item,
                                  int team, int team_ithr, int team_nthr) {
    const s8_conf_t *sc = e->sc;
    const gemm_conv_conf_t *cf = &sc->cf;
    const slice_t slice = slice_at(sc, e->slices, ithr), *sl = &slice;
    const gemm_conv_item_t it = gemm_conv_item_at(cf, item);
    const tsr_dim_t n = it.n, g = it.g, sp0 = it.sp0, len = it.len;
    const void *pad = e->pad_rows ? e->pad_rows + g * cf->sh.ICg : NULL;
    /* The padding order pays where padded taps are left out. */
    const int32_t *order = e->taps && !pad ? cf->point_order : NULL;
    /* Padded taps are left out of u8 rows only (see conf_init). A cursor
     * where one thread lists the item's tiles: a team of several lists
     * them from each of its threads. */
    gemm_conv_tap_cursor_t cursor = {-1, {0, 0, 0, 0}};
    const gemm_conv_tap_rows_t rows = {
            cf,
            (const char *)(e->src + cf->src_off0 + g * cf->sh.ICg),
            1,
            pad ? pad : sl->col,
            !pad && sc->src_dt == tsr_u8,
            n,
            sp0,
            order,
            (team || team_nthr > 1) && cf->nthr > 1 ? NULL : &cursor};
    const tsr_gemm_taps_t taps = {cf->KS, cf->sh.ICg, gemm_conv_tap_rows, &rows,
                                  NULL};
    gemm_conv_window_t wnd = {NULL, NULL, 0, 0, 0};
    tsr_gemm_s8_tap_offs_t window_taps = sc->window_taps;
    window_taps.off = sc->window_tap_off;
    if (e->window) {
        wnd = gemm_conv_window_fill(
                cf,
                e->src + cf->src_off0 + n * cf->src_s[CONV_N] + g * cf->sh.ICg,
                pad, sp0, len, team_ithr, team_nthr, sl->col);
    } else if (e->taps) {
        if (!pad)
            memset(sl->col, 0, (size_t)cf->sh.ICg);
    } else if (!cf->direct) {
        gemm_conv_gather(cf, e->src, 1, pad, &it, team, sl->col);
    }
    const int add_back = e->col_offset && !e->z.padded_with_zp && !cf->direct;
    store_ctx_t sctx = {sc,
                        e->rt,
                        e->dst,
                        n,
                        g,
                        sp0,
                        add_back ? &e->z : NULL,
                        wei_view(cf, e->wei, g),
                        order,
                        e->window && !cf->row_taps ? &wnd : NULL};
    tsr_epilogue_common_t common;
    tsr_gemm_s8_dst_t dst_store = {&common, NULL, cf->dst_sp_step, NULL};
    tsr_gemm_s8_args_t a;
    memset(&a, 0, sizeof(a));
    if (!add_back && common_store_ok(e, &it, &common)) {
        if (e->window && cf->row_taps) {
            /* Set per output row below. */
        } else if (e->window) {
            /* The window's padded points are not stored. */
            gemm_conv_window_dst_rows(cf, &wnd, n, g, team_ithr, team_nthr,
                                      sl->dst_rows);
            dst_store.dst = e->dst;
            dst_store.row_off = sl->dst_rows;
        } else if (order) {
            /* Rows in the padding order: each at its point's place. */
            gemm_conv_ordered_dst_rows(cf, order, n, g, sp0, len, sl->dst_rows);
            dst_store.dst = e->dst;
            dst_store.row_off = sl->dst_rows;
        } else {
            dst_store.dst = (char *)e->dst +
                            gemm_conv_dst_offset(cf, n, g * cf->sh.OCg, sp0) *
                                    common.dt_bytes;
        }
        a.dst_store = &dst_store;
    }
    a.M = e->window ? wnd.rows : len;
    a.N = cf->sh.OCg;
    a.K = cf->K;
    a.a_dt = sc->cf.col_flip_sign ? tsr_u8 : sc->src_dt;
    set_data_operand(e, sl, n, g, sp0, &a);
    if (e->taps)
        a.a_taps = &taps;
    if (e->window) {
        a.A = wnd.a;
        a.lda = cf->sh.ICg;
        a.K = window_taps.ntaps * window_taps.k_tap;
        a.a_rows_padded = 0;
        a.a_tap_offs = &window_taps;
    }
    if (e->wei_in_place) {
        a.B = e->wei + g * cf->panel_g_stride;
        a.b_prepacked = 1;
    } else {
        a.B = e->wei + cf->wei_off0 + g * cf->wei_g_stride;
        a.transb = cf->wei_oc_rows;
        a.ldb = cf->wei_ld;
        const int64_t b_cols = a.transb ? a.K : a.N;
        if (a.ldb < b_cols)
            a.ldb = b_cols;
    }
    a.col_offset = e->col_offset ? e->col_offset + g * cf->sh.OCg : NULL;
    a.b_col_sums = e->wei_sums ? e->wei_sums + g * cf->sh.OCg : NULL;
    a.epilogue = store_tile;
    a.epilogue_ctx = &sctx;
    if (e->row_b) {
        a.B = e->row_b + g * sc->row_b_g_bytes;
        a.b_prepacked = 1;
        a.b_col_sums = e->row_b_sums + g * cf->sh.OCg;
    }
    a.scratch = sl->gemm;
    a.scratch_size = cf->gemm_bytes;
    a.team_nthr = team ? 0 : team_nthr;
    a.team_ithr = team_ithr;
    if (team_nthr > 1) {
        /* The window and its dst rows, which all read, are whole. */
#pragma omp barrier
    }
    if (!(e->window && cf->row_taps))
        return tsr_gemm_s8(&a);
    /* Kernel-row taps: one GEMM per output row, its points SW pixels
     * apart in the window; a thread running them alone keeps the
     * kernel's tiles set up from one to the next. */
    a.lda = cf->sh.KSW * cf->sh.ICg;
    a.keep_tiles = a.team_nthr == 1;
    tsr_status_t st = tsr_success;
    for (tsr_dim_t sp = sp0, seg; sp < sp0 + len && st == tsr_success;
         sp += seg) {
        const tsr_dim_t oh = sp / cf->sh.OW, ow = sp % cf->sh.OW;
        seg = TSR_MIN(cf->sh.OW - ow, sp0 + len - sp);
        a.M = seg;
        a.A = gemm_conv_window_row_a(cf, &wnd, oh, ow);
        sctx.sp0 = sp;
        if (a.dst_store)
            dst_store.dst = (char *)e->dst +
                            gemm_conv_dst_offset(cf, n, g * cf->sh.OCg, sp) *
                                    common.dt_bytes;
        st = tsr_gemm_s8(&a);
    }
    if (a.keep_tiles)
        tsr_gemm_s8_release_tiles();
    return st;
}

static tsr_status_t run_item(const void *ctx, int ithr, tsr_dim_t item,
                             int team) {
    return run_item_part(ctx, ithr, item, team, 0, 1);
}

/* The items of a point window too few to give each thread its own (the
 * late layers at mb1, 7x7): each in one parallel region of all threads,
 * which copy the window together and share the GEMM, rather than a copy
 * by one thread before the GEMM's own region (res5a_branch2b on 2
 * threads: -4% time). */
static tsr_status_t run_window_items_as_team(const exec_t *e) {
    const gemm_conv_conf_t *cf = &e->sc->cf;
    const tsr_dim_t items = gemm_conv_items(cf);
    tsr_status_t st = tsr_success;
    for (tsr_dim_t i = 0; i < items && st == tsr_success; i++) {
#pragma omp parallel num_threads(cf->nthr)
        {
            const tsr_status_t s = run_item_part(
                    e, 0, i, 0, omp_get_thread_num(), omp_get_num_threads());
            if (s != tsr_success) {
#pragma omp critical
                st = s;
            }
        }
    }
    return st;
}

/* Zero point values and pad rows of this execution (col_offset comes
 * once the weights are settled). */
static void setup_src_zp(const s8_conf_t *sc, const tsr_exec_ctx_t *ctx,
                         char *shared, exec_t *e) {
    memset(&e->z, 0, sizeof(e->z));
    e->col_offset = NULL;
    e->pad_rows = NULL;
    if (!sc->with_src_zp && !sc->cf.col_flip_sign)
        return;
    if (sc->with_src_zp) {
        e->z.zp = tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC);
        e->z.per_ic = sc->src_zp_per_ic;
    }
    e->z.shift = sc->cf.col_flip_sign ? 128 : 0;
    uint8_t *pad_rows = (uint8_t *)shared + sizeof(int32_t) *
                                                    (size_t)sc->cf.sh.G *
                                                    (size_t)sc->cf.sh.OCg;
    e->z.padded_with_zp = fill_pad_rows(sc, &e->z, pad_rows);
    if (e->z.padded_with_zp) {
        e->pad_rows = pad_rows;
    } else if (e->z.shift) {
        /* The source's 0, shifted. */
        memset(pad_rows, 128, (size_t)(sc->cf.sh.G * sc->cf.sh.ICg));
        e->pad_rows = pad_rows;
    }
}

/* 1 when the GEMM's kernel takes these weights panels. Weights with extra
 * data say so themselves (the reorder that wrote them checked, see
 * memory_extra.c); others are checked here, at every execution. */
static int panels_fit(const tsr_memory_desc_t *wei_md, const void *wei,
                      const int8_t *packed, int64_t bytes) {
    if (!tsr_gemm_s8_prepacked_needs_narrow())
        return 1;
    if (md_extra_size(wei_md))
        return md_extra_pairs_narrow(wei_md, wei);
    return tsr_gemm_s8_prepacked_fits(packed, bytes);
}

/* Where this execution reads the weights: prepacked weights in place when
 * the GEMM's kernel takes them and nothing needs single weights (the
 * padding add-back, zero points per channel or without stored sums);
 * else their plain copy, made in the scratchpad. */
static void settle_weights(const s8_conf_t *sc, const tsr_memory_desc_t *wei_md,
                           char *unpacked, exec_t *e) {
    const gemm_conv_conf_t *cf = &sc->cf;
    e->wei_in_place = 0;
    if (!cf->wei_panels)
        return;
    const int8_t *packed = e->wei + cf->panel_off0;
    const int needs_single =
            sc->with_src_zp && (e->z.per_ic || !e->wei_sums ||
                                (!e->z.padded_with_zp && !sc->cf.direct));
    if (!needs_single && tsr_gemm_s8_prepacked_nr() == cf->panel_nr &&
        panels_fit(wei_md, e->wei, packed, cf->panel_bytes)) {
        e->wei = packed;
        e->wei_in_place = 1;
        return;
    }
    gemm_conv_unpack_panels(cf, e->wei, 1, unpacked);
    e->wei = (const int8_t *)unpacked;
}

/* Weight (k, oc) of group g as this execution reads them (prepacked
 * panels in place, or plain). */
static int8_t wei_at(const exec_t *e, tsr_dim_t g, tsr_dim_t k, tsr_dim_t oc) {
    const gemm_conv_conf_t *cf = &e->sc->cf;
    if (e->wei_in_place) {
        const tsr_dim_t kb = cf->panel_kblk;
        return e->wei[g * cf->panel_g_stride +
                      gemm_conv_panel_index(cf->panel_nr, kb,
                                            tsr_rnd_up(cf->K, kb), k, oc)];
    }
    const wei_view_t v = wei_view(cf, e->wei, g);
    return v.w[k * v.k_step + oc * v.oc_step];
}

/* The weights of kernel-row taps rounded up to whole quads (zero rows
 * after each kernel row's KW * ICg values), as the GEMM's prepacked
 * panels, and their column sums after all groups' panels. Written at
 * every execution before the items, by one thread: a weight row of a
 * panel at a time (the panel index per weight cost 3% of ResNet-50 conv1
 * on 2 threads). */
static void write_row_weights(const s8_conf_t *sc, const exec_t *e, char *out) {
    const gemm_conv_conf_t *cf = &sc->cf;
    const int64_t nr = tsr_gemm_s8_prepacked_nr();
    const tsr_dim_t run = cf->sh.KW * cf->sh.ICg, k_tap = sc->window_taps.k_tap;
    const tsr_dim_t kpad = sc->window_taps.ntaps * k_tap;
    int32_t *sums = (int32_t *)(out + cf->sh.G * sc->row_b_g_bytes);
    for (tsr_dim_t g = 0; g < cf->sh.G; g++) {
        int8_t *panels = (int8_t *)out + g * sc->row_b_g_bytes;
        memset(panels, 0, sc->row_b_g_bytes);
        /* Kernel rows of few channels have plain weights, not panels. */
        const wei_view_t v = wei_view(cf, e->wei, g);
        for (tsr_dim_t oc0 = 0; oc0 < cf->sh.OCg; oc0 += nr) {
            const tsr_dim_t cols = TSR_MIN(nr, cf->sh.OCg - oc0);
            /* Sums modulo 2^32, as the GEMM's (unsigned wraps). */
            uint32_t *col_sum = (uint32_t *)(sums + g * cf->sh.OCg + oc0);
            memset(col_sum, 0, sizeof(*col_sum) * (size_t)cols);
            for (tsr_dim_t t = 0; t < sc->window_taps.ntaps; t++)
                for (tsr_dim_t j = 0; j < run; j++) {
                    /* Column c of row kd of this panel is at d[4 * c]. */
                    int8_t *d =
                            panels + gemm_conv_panel_index(nr, 4, kpad,
                                                           t * k_tap + j, oc0);
                    const int8_t *src =
                            v.w + (t * run + j) * v.k_step + oc0 * v.oc_step;
                    for (tsr_dim_t c = 0; c < cols; c++) {
                        const int8_t w =
                                e->wei_in_place
                                        ? wei_at(e, g, t * run + j, oc0 + c)
                                        : src[c * v.oc_step];
                        d[4 * c] = w;
                        col_sum[c] += (uint32_t)(int32_t)w;
                    }
                }
        }
    }
}

static tsr_status_t gemm_conv_s8_execute(const struct tsr_primitive_desc *pd,
                                         const tsr_exec_ctx_t *ctx) {
    const s8_conf_t *sc = pd->impl_data;
    const gemm_conv_conf_t *cf = &sc->cf;
    char *scratch = ctx->scratchpad;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&cf->ep, ctx, &rt);
    exec_t e;
    memset(&e, 0, sizeof(e));
    e.sc = sc;
    e.src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    e.wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    e.dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    e.rt = &rt;
    if (sc->wei_sums)
        e.wei_sums = md_extra_comp(&pd->md[TSR_MD_WEIGHTS], e.wei);
    setup_src_zp(sc, ctx, scratch, &e);
    settle_weights(sc, &pd->md[TSR_MD_WEIGHTS], scratch + sc->shared_bytes, &e);
    if (sc->with_src_zp || sc->cf.col_flip_sign) {
        int32_t *col_offset = (int32_t *)scratch;
        compute_col_offset(sc, e.wei, e.wei_sums, &e.z, col_offset);
        e.col_offset = col_offset;
    }
    e.slices = scratch + sc->shared_bytes + sc->cf.panel_copy_bytes;
    /* A zero point the source cannot hold pads with zeros and adds its
     * products back at the store, which only col's layout allows. */
    e.taps = cf->taps_ok && e.wei_in_place &&
             (!sc->with_src_zp || e.z.padded_with_zp);
    e.window = cf->src_window && (!sc->with_src_zp || e.z.padded_with_zp);
    if (e.window && sc->row_b_pad) {
        char *row_b = scratch + sc->row_b_off;
        write_row_weights(sc, &e, row_b);
        e.row_b = (const int8_t *)row_b;
        e.row_b_sums = (const int32_t *)(row_b + cf->sh.G * sc->row_b_g_bytes);
    }
    /* An s8 source planned by taps is not flipped into col. */
    if (cf->taps_ok && sc->src_dt == tsr_s8 && !e.taps)
        return tsr_runtime_error;
    if (e.window && !cf->row_taps && !cf->per_thread_items && cf->nthr > 1)
        return run_window_items_as_team(&e);
    return gemm_conv_run_items(cf, run_item, &e);
}

const tsr_impl_t tsr_gemm_convolution_s8_fwd_impl = {
        .name = "gemm:s8",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_conv_s8_init,
        .execute = gemm_conv_s8_execute,
        .fini = gemm_conv_s8_fini,
};
