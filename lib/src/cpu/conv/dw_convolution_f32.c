/* "dw:f32": forward f32 depthwise convolution (groups == IC == OC) with
 * channels as the vector dim, for channels-last or 8- or 16-channel
 * blocked data and plain weights; every attribute through the shared
 * epilogue. Layouts and the kernel contract in dw_conv_f32.h.
 *
 * "dw:s8" runs the same kernels on int8 data: the source rows a work item
 * reads are converted to f32 (minus the source zero point) into the
 * thread's scratchpad, the weights to f32 by the repack, and the f32 sums
 * of integer products are exact (below 2^24 for up to DW_MAX_TAPS taps of
 * 255 * 128), so they equal the reference's integer sums. The epilogue then
 * takes them to any dst type as for the int8 GEMM convolution.
 *
 * Work items are (image, output depth and row, chunk of channels), split
 * statically over the threads; each item runs the row kernel over tiles of
 * the output row and applies the epilogue to each tile while it is in the
 * cache (a bias alone is added by the kernel at its store).
 *
 * "any" is 16-channel blocked with the AVX-512 kernel, as a channels-last
 * point stride of C floats puts a row's points in few L1 sets (C 256: a
 * quarter of them, C 1024: one), so a row's input does not stay in L1
 * between the taps and output rows that reuse it; a 16-channel block's
 * rows are contiguous. The items then walk a chunk's output rows, whose
 * input rows stay cached between them. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/convolution_pd.h"
#include "common/isa.h"
#include "common/memory_desc.h"
#include "common/op_md.h"
#include "common/utils.h"
#include "cpu/conv/dw_conv_f32.h"

/* Target floats of one output tile (row segment x channel chunk): it stays
 * in L1 between the kernel and the epilogue. */
#define TILE_FLOATS 4096
#define MAX_TILE_OW 256
/* Fewer work items per thread than this: smaller channel chunks. */
#define ITEMS_PER_THREAD 4
/* Input rows of a chunk (all of one output row's taps) that items walking
 * a chunk's rows keep in L2 for the next rows: a quarter of a 1 MiB L2.
 * Larger chunks measured faster than ones whose rows fit L1 (24 KiB:
 * -9% on MobileNet's dw layers), fewer items costing less. */
#define ROWS_CACHE_BYTES (256 * 1024)

/* The portable row kernel: the loops of the vector ones, a point and a
 * vector of channels at a time. */
static void dw_conv_row_generic(const dw_row_args_t *a) {
    for (tsr_dim_t h = 0; h < a->nh; h++)
        for (tsr_dim_t ow = 0; ow < a->now; ow++) {
            const tsr_dim_t iw0 = (a->ow0 + ow) * a->SW - a->padL;
            tsr_dim_t lo, hi;
            conv_inside_taps(iw0, a->DW, a->KW, a->IW, &lo, &hi);
            for (tsr_dim_t j = 0; j * DW_VLEN < a->nc; j++) {
                const tsr_dim_t nl = TSR_MIN(DW_VLEN, a->nc - j * DW_VLEN);
                float acc[DW_VLEN] = {0};
                for (int r = 0; r < a->nrows; r++) {
                    for (tsr_dim_t kw = lo; kw < hi; kw++) {
                        const float *s = a->src_row[r] + h * a->src_hs +
                                         (iw0 + kw * a->DW) * a->src_sw +
                                         j * a->src_cv;
                        const float *w =
                                a->wei_row[r] + kw * a->wei_sw + j * DW_VLEN;
                        for (tsr_dim_t l = 0; l < nl; l++)
                            acc[l] += s[l] * w[l];
                    }
                }
                float *d =
                        a->dst + h * a->dst_hs + ow * a->dst_sw + j * a->dst_cv;
                for (tsr_dim_t l = 0; l < nl; l++) {
                    const float v = a->bias ? acc[l] + a->bias[j * DW_VLEN + l]
                                            : acc[l];
                    if (a->store_s32) {
                        const int32_t i = (int32_t)v; /* an exact integer */
                        memcpy(d + l, &i, sizeof(i));
                    } else {
                        d[l] = v;
                    }
                }
            }
        }
}

static void dw_int8_to_f32_generic(float *dst, const void *src, const float *zp,
                                   int64_t n, int src_u8) {
    for (int64_t i = 0; i < n; i++)
        dst[i] = (src_u8 ? (float)((const uint8_t *)src)[i]
                         : (float)((const int8_t *)src)[i]) -
                 zp[i];
}

/* Channels-last (no inner blocks, channel stride 1), or blocked by 8 or
 * 16 channels only; *cblk as in dw_conv_conf_t, *blocked unless
 * channels-last. */
static int data_layout_ok(const tsr_memory_desc_t *md, int *cblk,
                          int *blocked) {
    if (md->format_kind != tsr_format_kind_blocked)
        return 0;
    const tsr_blocking_desc_t *b = &md->blocking;
    *cblk = DW_VLEN;
    *blocked = b->inner_nblks != 0;
    if (!*blocked)
        return md->dims[1] == 1 || b->strides[1] == 1;
    *cblk = (int)b->inner_blks[0];
    return b->inner_nblks == 1 && b->inner_idxs[0] == 1 &&
           (*cblk == DW_VLEN || *cblk == 2 * DW_VLEN);
}

/* Strides over n, c (of a channel block, 8 channels-last), d, h, w of a
 * data md. */
static void data_strides(const tsr_memory_desc_t *md, int blocked,
                         tsr_dim_t *s) {
    const int nd = md->ndims;
    for (int i = 0; i < DW_NDIMS; i++)
        s[i] = 0;
    s[DW_N] = md->blocking.strides[0];
    s[DW_C] = blocked ? md->blocking.strides[1] : DW_VLEN;
    for (int d = 2; d < nd; d++)
        s[DW_W - (nd - 1 - d)] = md->blocking.strides[d];
}

/* The step between the weights of two taps: the channel count, one cache
 * line more when that is a multiple of 256 floats. The taps' weights of a
 * channel vector then do not share one L1 set and low 12 address bits
 * with each other and with channels-last data of the same channel count,
 * which costs a third of the speed (1024 channels 7x7, 1 thread). */
static tsr_dim_t wei_tap_step(tsr_dim_t C) {
    return C % 256 == 0 ? C + 16 : C;
}

/* Tap-major weights ([kd] [kh] kw i o g) with taps wei_tap_step apart. */
static tsr_status_t weights_any(tsr_memory_desc_t *md) {
    const int nd = md->ndims;
    tsr_dim_t strides[TSR_MAX_NDIMS];
    strides[0] = 1;              /* g */
    strides[1] = strides[2] = 1; /* o, i: one per group */
    tsr_dim_t step = wei_tap_step(md->dims[0]);
    for (int d = nd - 1; d >= 3; d--) {
        strides[d] = step;
        step *= md->dims[d];
    }
    return tsr_memory_desc_init_by_strides(md, nd, md->dims, md->data_type,
                                           strides);
}

/* "any": data blocked by cblk channels, or channels-last when cblk is 0;
 * weights tap-major with the group innermost (weights_any); a plain 1D
 * bias. */
static tsr_status_t resolve_any(tsr_memory_desc_t *md, int kind,
                                tsr_dim_t cblk) {
    if (!md_is_any(md))
        return tsr_success;
    if (kind == TSR_MD_WEIGHTS)
        return weights_any(md);
    int order[TSR_MAX_NDIMS], k = 0;
    const int nd = md->ndims;
    const tsr_dim_t blk[1] = {cblk};
    const int blk_idx[1] = {1};
    const int blocked = kind != TSR_MD_BIAS && cblk > 0;
    if (kind == TSR_MD_BIAS || blocked) {
        for (int d = 0; d < nd; d++)
            order[k++] = d;
    } else {
        order[k++] = 0;
        for (int d = 2; d < nd; d++)
            order[k++] = d;
        order[k++] = 1;
    }
    tsr_memory_desc_t built;
    const tsr_status_t st =
            md_init_blocked(&built, nd, md->dims, md->data_type, order, blocked,
                            blocked ? blk : NULL, blocked ? blk_idx : NULL);
    if (st == tsr_success)
        *md = built;
    return st;
}

/* Strides over g, kd, kh, kw of a weights md (missing dims: 0). */
static void weights_strides(const tsr_memory_desc_t *md, tsr_dim_t *s) {
    const int nd = md->ndims;
    memset(s, 0, 4 * sizeof(*s));
    s[0] = md->blocking.strides[0];
    for (int d = 3; d < nd; d++)
        s[3 - (nd - 1 - d)] = md->blocking.strides[d];
}

static tsr_status_t weights_init(dw_conv_conf_t *cf,
                                 const tsr_memory_desc_t *md) {
    if (md->format_kind != tsr_format_kind_blocked ||
        md->blocking.inner_nblks != 0)
        return tsr_unimplemented;
    weights_strides(md, cf->wei_s);
    cf->wei_off0 = md->offset0;
    cf->wei_direct =
            md->data_type == tsr_f32 && (cf->C == 1 || cf->wei_s[0] == 1);
    cf->wei_floats = 0;
    if (cf->wei_direct)
        return tsr_success;
    /* Other layouts (and s8 weights) are copied per execution into the
     * "any" one, as f32. */
    tsr_memory_desc_t packed = *md;
    packed.data_type = tsr_f32;
    const tsr_status_t st = weights_any(&packed);
    if (st != tsr_success)
        return st;
    weights_strides(&packed, cf->packed_s);
    cf->wei_floats = tsr_memory_desc_get_size(&packed) / sizeof(float);
    return tsr_success;
}

/* Weights scales over (g, oc): with one output channel per group either
 * bit selects the dst channel. */
static void wei_scale_form(const struct tsr_primitive_desc *pd,
                           const dw_conv_conf_t *cf, int64_t *div,
                           int64_t *mod) {
    const int mask = pd->attr.scales[TSR_QARG_WEIGHTS].mask;
    *div = 1;
    *mod = (mask & ~3) ? 0 : (mask & 1) ? cf->C : 1;
}

/* The channel chunk from a first guess: smaller while the threads would
 * get too few work items, then equal chunks (threads get equal work),
 * whole kernel channel groups when there are several. */
static tsr_dim_t chunk_for(const dw_conv_conf_t *cf, tsr_dim_t chunk) {
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t target = (tsr_dim_t)ITEMS_PER_THREAD * cf->nthr;
    const tsr_dim_t rows = sh->MB * sh->OD * sh->OH;
    while (chunk > 16 && rows * tsr_div_up(cf->C, chunk) < target)
        chunk = tsr_rnd_up(chunk / 2, 16);
    const tsr_dim_t unit = chunk > DW_GROUP_C ? DW_GROUP_C : 16;
    chunk = tsr_rnd_up(tsr_div_up(cf->C, tsr_div_up(cf->C, chunk)), unit);
    return TSR_MIN(chunk, tsr_rnd_up(cf->C, DW_VLEN));
}

static int cache_floats(const dw_conv_conf_t *cf, size_t *floats);

/* Tile width, channel chunk, threads and scratchpad; 0 when a size
 * overflows. */
static int plan_work(dw_conv_conf_t *cf) {
    const conv_sizes_t *sh = &cf->sh;
    cf->nthr = omp_get_max_threads();
    cf->tile_ow = TSR_MIN(sh->OW, MAX_TILE_OW);
    cf->band_h = 1;
    if (cf->row_bands) {
        /* Up to `target` chunks of whole blocks, then bands of rows as
         * few as make `target` items: calls are few, a call's blocks
         * each walk many rows. */
        const tsr_dim_t target = (tsr_dim_t)ITEMS_PER_THREAD * cf->nthr;
        const tsr_dim_t blocks = tsr_div_up(cf->C, 16);
        cf->chunk_c = 16 * tsr_div_up(blocks, TSR_MIN(blocks, target));
        const tsr_dim_t items =
                sh->MB * sh->OD * tsr_div_up(cf->C, cf->chunk_c);
        cf->band_h = tsr_div_up(sh->OH, tsr_div_up(target, items));
    } else {
        tsr_dim_t chunk = (TILE_FLOATS / cf->tile_ow) / 16 * 16;
        if (cf->rows_inner) {
            int64_t row_bytes;
            if (!tsr_mul_i64(sh->KD * sh->KH * (tsr_dim_t)sizeof(float), sh->IW,
                             &row_bytes))
                return 0;
            chunk = TSR_MIN(chunk, ROWS_CACHE_BYTES / row_bytes / 16 * 16);
        }
        cf->chunk_c = chunk_for(cf, TSR_MAX(16, chunk));
    }
    /* The f32 accumulators go to a tile unless dst is f32 and no sum
     * needs its old values. */
    const tsr_dim_t tile_floats =
            tsr_epilogue_reads_dst(&cf->ep) || cf->ep.dst_dt != tsr_f32
                    ? md_mul_elems(cf->tile_ow,
                                   tsr_rnd_up(cf->chunk_c, DW_VLEN))
                    : 0;
    if (tile_floats < 0)
        return 0;
    cf->tile_floats = (size_t)tile_floats;
    cf->rows_floats = 0;
    return cf->src_dt == tsr_f32 || cache_floats(cf, &cf->rows_floats);
}

static int is_int8(tsr_data_type_t dt) {
    return dt == tsr_u8 || dt == tsr_s8;
}

/* The data types of "dw:f32" (all f32) or "dw:s8" (u8/s8 source, s8
 * weights, any dst and bias the epilogue writes and reads). */
static int data_types_ok(int int8, const tsr_memory_desc_t *src,
                         const tsr_memory_desc_t *wei,
                         const tsr_memory_desc_t *bia,
                         const tsr_memory_desc_t *dst, int with_bias) {
    if (!int8)
        return src->data_type == tsr_f32 && wei->data_type == tsr_f32 &&
               dst->data_type == tsr_f32 &&
               (!with_bias || bia->data_type == tsr_f32);
    return is_int8(src->data_type) && wei->data_type == tsr_s8 &&
           op_data_types_ok(src->data_type, wei->data_type,
                            with_bias ? bia->data_type : tsr_f32,
                            dst->data_type);
}

static tsr_status_t conf_init(dw_conv_conf_t *cf, struct tsr_primitive_desc *pd,
                              int int8) {
    memset(cf, 0, sizeof(*cf));
    if (!conv_is_fwd_direct(pd))
        return tsr_unimplemented;
    if (!conv_with_groups(pd))
        return tsr_unimplemented;
    conv_sizes_init(&cf->sh, pd);
    if (cf->sh.ICg != 1 || cf->sh.OCg != 1 ||
        cf->sh.KD * cf->sh.KH > DW_MAX_ROWS ||
        cf->sh.KD * cf->sh.KH * cf->sh.KW > DW_MAX_TAPS)
        return tsr_unimplemented;
    const struct tsr_primitive_attr *attr = &pd->attr;
    /* Source zero points (int8): common or per channel. */
    const tsr_runtime_q_t *zp = &attr->zero_points[TSR_QARG_SRC];
    if ((zp->set && (!int8 || (zp->mask != 0 && zp->mask != (1 << 1)))) ||
        attr->zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    cf->src_zp = !zp->set ? 0 : zp->mask == 0 ? 1 : 2;
    tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC],
                      *wei = &pd->md[TSR_MD_WEIGHTS];
    tsr_memory_desc_t *bia = &pd->md[TSR_MD_BIAS], *dst = &pd->md[TSR_MD_DST];
    const int with_bias = conv_with_bias(pd);
    if (!data_types_ok(int8, src, wei, bia, dst, with_bias))
        return tsr_unimplemented;
    cf->src_dt = src->data_type;
    const int avx512 = tsr_mayiuse(tsr_cpu_isa_avx512_core);
    cf->row = avx512                          ? dw_conv_row_avx512
              : tsr_mayiuse(tsr_cpu_isa_avx2) ? dw_conv_row_avx2
                                              : dw_conv_row_generic;
    cf->to_f32 = avx512                          ? dw_int8_to_f32_avx512
                 : tsr_mayiuse(tsr_cpu_isa_avx2) ? dw_int8_to_f32_avx2
                                                 : dw_int8_to_f32_generic;
    /* "any" data in the vector kernels' blocks, whose rows are contiguous
     * for bands (row_bands), f32 only: int8 sources are converted by
     * channels-last rows. */
    const tsr_dim_t any_cblk = int8                            ? 0
                               : avx512                        ? 2 * DW_VLEN
                               : tsr_mayiuse(tsr_cpu_isa_avx2) ? DW_VLEN
                                                               : 0;
    if (resolve_any(src, TSR_MD_SRC, any_cblk) != tsr_success ||
        resolve_any(dst, TSR_MD_DST, any_cblk) != tsr_success ||
        resolve_any(wei, TSR_MD_WEIGHTS, any_cblk) != tsr_success ||
        (with_bias && resolve_any(bia, TSR_MD_BIAS, any_cblk) != tsr_success) ||
        !conv_src_offsets_fit(pd))
        return tsr_unimplemented;
    int src_blocked, dst_blocked;
    if (!data_layout_ok(src, &cf->src_cblk, &src_blocked) ||
        !data_layout_ok(dst, &cf->dst_cblk, &dst_blocked) ||
        (int8 && src_blocked))
        return tsr_unimplemented;
    cf->C = cf->sh.G;
    cf->DD = cf->sh.KDD + 1;
    cf->DH = cf->sh.KDH + 1;
    cf->DW = cf->sh.KDW + 1;
    data_strides(src, src_blocked, cf->src_s);
    data_strides(dst, dst_blocked, cf->dst_s);
    cf->src_off0 = src->offset0;
    cf->dst_off0 = dst->offset0;
    cf->dst_cl = !dst_blocked;
    cf->rows_inner = src_blocked;
    cf->cache_blk16 = int8 && avx512;
    /* The AVX-512 kernel passes 8-channel blocks to the AVX2 one. */
    cf->row_blocks16 = avx512 && !(src_blocked && cf->src_cblk == DW_VLEN) &&
                       !(dst_blocked && cf->dst_cblk == DW_VLEN);
    const tsr_status_t wst = weights_init(cf, wei);
    if (wst != tsr_success)
        return wst;

    int64_t div, mod;
    wei_scale_form(pd, cf, &div, &mod);
    const tsr_status_t st = tsr_epilogue_init(
            &cf->ep, attr, dst, with_bias ? bia : NULL, 1, div, mod);
    if (st != tsr_success)
        return st;
    /* Both hold for an f32 dst only, where the kernel's sums are the
     * result. */
    cf->ep_identity = tsr_epilogue_is_identity(&cf->ep);
    cf->ep_in_kernel = tsr_epilogue_is_bias_only(&cf->ep);
    cf->ep_uniform_w = tsr_epilogue_uniform_along(&cf->ep, cf->sh.ndims - 1);
    const tsr_data_type_t ddt = cf->ep.dst_dt;
    cf->ep_s32 = int8 && cf->ep.fused.ok &&
                 (ddt == tsr_u8 || ddt == tsr_s8 || ddt == tsr_s32);
    cf->ep_common_form =
            int8 && avx512 && cf->ep_uniform_w &&
                            (!dst_blocked || cf->dst_cblk == 2 * DW_VLEN)
                    ? tsr_epilogue_common_form(&cf->ep.fused, ddt,
                                               cf->ep.round_mode)
                    : 0;
    /* Bands need the sums in dst with nothing left to apply (a pass per
     * row would read the band back from L2). */
    cf->row_bands = cf->rows_inner && (cf->ep_identity || cf->ep_in_kernel);
    return plan_work(cf) ? tsr_success : tsr_unimplemented;
}

static size_t wei_bytes(const dw_conv_conf_t *cf) {
    return (size_t)tsr_rnd_up((int64_t)(cf->wei_floats * sizeof(float)), 64);
}

static size_t tile_bytes(const dw_conv_conf_t *cf) {
    return (size_t)tsr_rnd_up((int64_t)(cf->tile_floats * sizeof(float)), 64);
}

static size_t rows_bytes(const dw_conv_conf_t *cf) {
    return (size_t)tsr_rnd_up((int64_t)(cf->rows_floats * sizeof(float)), 64);
}

static tsr_status_t dw_init(struct tsr_primitive_desc *pd, int int8) {
    dw_conv_conf_t *cf = malloc(sizeof(*cf));
    if (!cf)
        return tsr_out_of_memory;
    const tsr_status_t st = conf_init(cf, pd, int8);
    if (st != tsr_success) {
        free(cf);
        return st;
    }
    size_t per_thread;
    if (!tsr_add_size(tile_bytes(cf), rows_bytes(cf), &per_thread) ||
        !tsr_mul_size(per_thread, (size_t)cf->nthr, &per_thread) ||
        !tsr_add_size(wei_bytes(cf), per_thread, &pd->scratchpad_size)) {
        free(cf);
        return tsr_unimplemented;
    }
    pd->impl_data = cf;
    return tsr_success;
}

static tsr_status_t dw_conv_init(struct tsr_primitive_desc *pd) {
    return dw_init(pd, 0);
}

static tsr_status_t dw_conv_s8_init(struct tsr_primitive_desc *pd) {
    return dw_init(pd, 1);
}

static void dw_conv_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

typedef struct {
    const dw_conv_conf_t *cf;
    const tsr_epilogue_rt_t *rt;
    const float *src, *wei; /* wei: tap-major, channel stride 1 */
    tsr_dim_t wei_s[4];     /* its strides over g, kd, kh, kw */
    float *dst;
    const void *src_int8;  /* "dw:s8": the source, read through rows */
    const int32_t *src_zp; /* its zero points (1 or C values), or NULL */
    /* The common store the kernel runs (ep_common_form), or NULL. */
    const tsr_epilogue_common_t *common;
} exec_t;

/* "dw:s8": a thread's source rows as f32, kept across its work items:
 * consecutive output rows of a channel chunk share all but one of their
 * input rows (3x3), which are then converted once instead of KH times.
 * A slot holds the row (n, c0, row) of rnd_up(chunk_c, DW_VLEN) channels
 * per point, `used` the clock of its last use. */
typedef struct {
    tsr_dim_t n, c0, row, used;
} row_slot_t;

typedef struct {
    tsr_dim_t clock;
    /* What zp holds: per-channel zero points of the chunk at c0 (c0), or
     * common ones, or none, for a chunk of nc channels (-2 - nc, as only
     * the lanes past nc differ then); -1: nothing yet. */
    tsr_dim_t zp_key;
    row_slot_t slot[2 * DW_MAX_ROWS]; /* two chunks' rows */
} row_cache_t;

static int cache_slots(const dw_conv_conf_t *cf) {
    return (int)(2 * cf->sh.KD * cf->sh.KH);
}

/* Channels of a cached row point, padded to whole vectors or blocks. */
static tsr_dim_t cache_channels(const dw_conv_conf_t *cf, tsr_dim_t nc) {
    return tsr_rnd_up(nc, cf->cache_blk16 ? 2 * DW_VLEN : DW_VLEN);
}

static int cache_floats(const dw_conv_conf_t *cf, size_t *floats) {
    const tsr_dim_t ncp = cache_channels(cf, cf->chunk_c);
    const tsr_dim_t rows_floats =
            md_mul_elems(md_mul_elems(cache_slots(cf), ncp), cf->sh.IW);
    if (rows_floats < 0)
        return 0;
    *floats = (size_t)(tsr_div_up((tsr_dim_t)sizeof(row_cache_t), 64) * 16 +
                       ncp + rows_floats);
    return 1;
}

static void cache_reset(row_cache_t *rc) {
    rc->clock = 0;
    rc->zp_key = -1;
    for (int i = 0; i < 2 * DW_MAX_ROWS; i++)
        rc->slot[i].n = -1;
}

/* The source rows (id, ih) of row_in (nrows of them) for channels
 * c0 .. c0 + nc as f32 minus the zero point, each IW points of
 * cache_channels(nc) channels (the extra ones 0), channels-last or in
 * 16-channel blocks of IW points (cache_blk16), from the cache or
 * converted into it; the row arguments then point at them. */
static void int8_rows(const exec_t *e, row_cache_t *rc, const tsr_dim_t *row_in,
                      int nrows, tsr_dim_t n, tsr_dim_t c0, tsr_dim_t nc,
                      dw_row_args_t *a) {
    const dw_conv_conf_t *cf = e->cf;
    const tsr_dim_t ncp = cache_channels(cf, nc), IW = cf->sh.IW;
    const tsr_dim_t slot_floats = IW * cache_channels(cf, cf->chunk_c);
    float *zp =
            (float *)rc + tsr_div_up((tsr_dim_t)sizeof(row_cache_t), 64) * 16;
    float *data = zp + cache_channels(cf, cf->chunk_c);
    const int slots = cache_slots(cf);
    const tsr_dim_t now = ++rc->clock;
    int slot_of[DW_MAX_ROWS];
    for (int r = 0; r < nrows; r++) {
        slot_of[r] = -1;
        for (int i = 0; i < slots; i++) {
            const row_slot_t *sl = &rc->slot[i];
            if (sl->n == n && sl->c0 == c0 && sl->row == row_in[r]) {
                slot_of[r] = i;
                rc->slot[i].used = now;
                break;
            }
        }
    }
    const int u8 = cf->src_dt == tsr_u8;
    for (int r = 0; r < nrows; r++) {
        if (slot_of[r] < 0) {
            /* The least recently used slot this call does not read. */
            int v = -1;
            for (int i = 0; i < slots; i++)
                if (rc->slot[i].n < 0 ||
                    (rc->slot[i].used < now &&
                     (v < 0 || rc->slot[i].used < rc->slot[v].used))) {
                    v = i;
                    if (rc->slot[i].n < 0)
                        break;
                }
            const tsr_dim_t zp_key =
                    e->src_zp && cf->src_zp != 1 ? c0 : -2 - nc;
            if (rc->zp_key != zp_key) {
                /* Once per chunk a thread walks, or once for all with common
                 * zero points (per row, a tenth of the time of a
                 * 256-channel 28-point layer; per chunk still 7%). */
                for (tsr_dim_t c = 0; c < ncp; c++)
                    zp[c] = !e->src_zp || c >= nc ? 0.f
                            : cf->src_zp == 1     ? (float)e->src_zp[0]
                                                  : (float)e->src_zp[c0 + c];
                rc->zp_key = zp_key;
            }
            float *out = data + v * slot_floats;
            const tsr_dim_t base =
                    cf->src_off0 + n * cf->src_s[DW_N] + row_in[r] + c0;
            const uint8_t *in = (const uint8_t *)e->src_int8 + base;
            if (cf->cache_blk16) {
                dw_int8_row_to_f32_blk16_avx512(out, in, cf->src_s[DW_W], zp,
                                                nc, IW, u8);
            } else {
                for (tsr_dim_t iw = 0; iw < IW; iw++) {
                    float *o = out + iw * ncp;
                    cf->to_f32(o, in + iw * cf->src_s[DW_W], zp, nc, u8);
                    for (tsr_dim_t c = nc; c < ncp; c++)
                        o[c] = 0.f;
                }
            }
            rc->slot[v] = (row_slot_t){n, c0, row_in[r], now};
            slot_of[r] = v;
        }
        a->src_row[r] = data + slot_of[r] * slot_floats;
    }
    a->src_sw = cf->cache_blk16 ? 2 * DW_VLEN : ncp;
    a->src_cv = DW_VLEN;
    a->src_bs = cf->cache_blk16 ? IW * 2 * DW_VLEN : 0;
}

/* Channel offset c of a data tensor (strides s, blocks of cblk). */
static tsr_dim_t chan_off(const tsr_dim_t *s, int cblk, tsr_dim_t c) {
    return (c / cblk) * s[DW_C] + c % cblk;
}

/* The valid taps of output point o along one spatial dim: first input
 * index i0 = o * stride - pad, taps k with 0 <= i0 + k * step < in. */
static void tap_range(tsr_dim_t o, tsr_dim_t stride, tsr_dim_t pad,
                      tsr_dim_t step, tsr_dim_t k_size, tsr_dim_t in,
                      tsr_dim_t *i0, tsr_dim_t *lo, tsr_dim_t *hi) {
    *i0 = o * stride - pad;
    conv_inside_taps(*i0, step, k_size, in, lo, hi);
}

/* 1 when the kernel stores the tile as s32 for the epilogue (ep_s32; the
 * fused store then needs no work buffer). */
static int tile_as_s32(const exec_t *e, int tile) {
    return tile && e->cf->ep_s32 && e->cf->ep_uniform_w && e->rt->use_avx2;
}

/* The epilogue over the tile just computed: `now` points from ow0 of
 * channels c0 .. c0 + nc, accumulators at acc: the thread's channels-last
 * tile (point stride acc_sw) or, when `in_dst`, dst itself at dst_off;
 * s32 sums when `s32` (the kernel's store_s32), else f32. */
static void tile_epilogue(const exec_t *e, tsr_dim_t *pos, const float *acc,
                          tsr_dim_t acc_sw, int in_dst, int s32,
                          tsr_dim_t dst_off, tsr_dim_t c0, tsr_dim_t nc,
                          tsr_dim_t now) {
    const dw_conv_conf_t *cf = e->cf;
    const int wd = cf->sh.ndims - 1;
    const tsr_dim_t ow0 = pos[wd];
    /* The channels of a dst point run whole channels-last, else a block
     * at a time; the tile's all run whole. */
    const tsr_dim_t step = cf->dst_cl ? nc : cf->dst_cblk;
    for (tsr_dim_t j = 0; j < nc; j += step) {
        const tsr_dim_t dj = chan_off(cf->dst_s, cf->dst_cblk, j);
        float *a = (float *)acc + (in_dst ? dj : j);
        const tsr_dim_t n = TSR_MIN(step, nc - j);
        const tsr_dim_t d = dst_off + dj;
        pos[1] = c0 + j;
        if (s32) {
            /* One pass to dst (f32 sums take two). */
            tsr_epilogue_apply_rows_s32(&cf->ep, e->rt, (const int32_t *)a,
                                        acc_sw, now, n, pos, 1, e->dst, d,
                                        cf->dst_s[DW_W], 1, NULL);
            continue;
        }
        if (cf->ep_uniform_w) {
            tsr_epilogue_apply_rows(&cf->ep, e->rt, a, acc_sw, now, n, pos, 1,
                                    e->dst, d, cf->dst_s[DW_W], 1);
            continue;
        }
        for (tsr_dim_t ow = 0; ow < now; ow++) {
            pos[wd] = ow0 + ow;
            tsr_epilogue_apply_row(&cf->ep, e->rt, a + ow * acc_sw, n, pos, 1,
                                   e->dst, d + ow * cf->dst_s[DW_W], 1);
        }
        pos[wd] = ow0;
    }
}

/* A call on 16-channel blocked data for a kernel that takes channels in
 * vectors at one stride: one call per 16 channels, whose two vectors are
 * 8 floats apart in a block. */
static void row_by_blocks16(const dw_conv_conf_t *cf, dw_row_args_t *a) {
    const dw_row_args_t whole = *a;
    a->src_bs = a->dst_bs = 0;
    for (tsr_dim_t c = 0; c < whole.nc; c += 2 * DW_VLEN) {
        const tsr_dim_t so = whole.src_bs ? (c / (2 * DW_VLEN)) * whole.src_bs
                                          : (c / DW_VLEN) * whole.src_cv;
        const tsr_dim_t dof = whole.dst_bs ? (c / (2 * DW_VLEN)) * whole.dst_bs
                                           : (c / DW_VLEN) * whole.dst_cv;
        for (int r = 0; r < whole.nrows; r++) {
            a->src_row[r] = whole.src_row[r] + so;
            a->wei_row[r] = whole.wei_row[r] + c;
        }
        a->nc = TSR_MIN(2 * DW_VLEN, whole.nc - c);
        a->dst = whole.dst + dof;
        a->bias = whole.bias ? whole.bias + c : NULL;
        cf->row(a);
    }
    *a = whole;
}

/* Output rows (n, od, oh .. oh + nh), channels c0 .. c0 + nc, rows whose
 * (kd, kh) taps are the same (nh 1 unless row_bands); `tile`: the
 * thread's accumulator tile, or NULL. */
static void run_row(const exec_t *e, float *tile, row_cache_t *rows,
                    tsr_dim_t n, tsr_dim_t od, tsr_dim_t oh, tsr_dim_t nh,
                    tsr_dim_t c0, tsr_dim_t nc) {
    const dw_conv_conf_t *cf = e->cf;
    const conv_sizes_t *sh = &cf->sh;
    dw_row_args_t a;
    tsr_dim_t id0, kd_lo, kd_hi, ih0, kh_lo, kh_hi;
    tap_range(od, sh->KSD, sh->padF, cf->DD, sh->KD, sh->ID, &id0, &kd_lo,
              &kd_hi);
    tap_range(oh, sh->KSH, sh->padT, cf->DH, sh->KH, sh->IH, &ih0, &kh_lo,
              &kh_hi);
    const float *src = e->src ? e->src + cf->src_off0 + n * cf->src_s[DW_N] +
                                        chan_off(cf->src_s, cf->src_cblk, c0)
                              : NULL;
    tsr_dim_t row_in[DW_MAX_ROWS];
    a.nrows = 0;
    for (tsr_dim_t kd = kd_lo; kd < kd_hi; kd++)
        for (tsr_dim_t kh = kh_lo; kh < kh_hi; kh++) {
            row_in[a.nrows] = (id0 + kd * cf->DD) * cf->src_s[DW_D] +
                              (ih0 + kh * cf->DH) * cf->src_s[DW_H];
            a.src_row[a.nrows] = src ? src + row_in[a.nrows] : NULL;
            a.wei_row[a.nrows] =
                    e->wei + c0 + kd * e->wei_s[1] + kh * e->wei_s[2];
            a.nrows++;
        }
    a.nc = nc;
    a.nh = nh;
    a.src_hs = sh->KSH * cf->src_s[DW_H];
    a.dst_hs = cf->dst_s[DW_H];
    a.KW = sh->KW;
    a.SW = sh->KSW;
    a.DW = cf->DW;
    a.padL = sh->padL;
    a.IW = sh->IW;
    a.src_sw = cf->src_s[DW_W];
    const int src_blk16 = cf->src_cblk == 2 * DW_VLEN;
    a.src_cv = src_blk16 ? DW_VLEN : cf->src_s[DW_C];
    a.src_bs = src_blk16 ? cf->src_s[DW_C] : 0;
    if (!src)
        int8_rows(e, rows, row_in, a.nrows, n, c0, nc, &a);
    a.wei_sw = e->wei_s[3];
    a.bias = cf->ep_in_kernel
                     ? (const float *)e->rt->bias + cf->ep.bias_md.offset0 + c0
                     : NULL;
    const tsr_dim_t dst_row = cf->dst_off0 + n * cf->dst_s[DW_N] +
                              chan_off(cf->dst_s, cf->dst_cblk, c0) +
                              od * cf->dst_s[DW_D] + oh * cf->dst_s[DW_H];
    tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
    a.common = e->common;
    a.common_dt = cf->ep.dst_dt;
    a.common_form = cf->ep_common_form;
    a.common_c0 = c0;
    pos[0] = n;
    if (sh->ndims == 5)
        pos[2] = od;
    if (sh->ndims >= 4)
        pos[sh->ndims - 2] = oh;
    for (tsr_dim_t ow0 = 0; ow0 < sh->OW; ow0 += cf->tile_ow) {
        a.ow0 = ow0;
        a.now = TSR_MIN(cf->tile_ow, sh->OW - ow0);
        const tsr_dim_t dst_off = dst_row + ow0 * cf->dst_s[DW_W];
        /* Accumulators go to dst unless a sum needs its old values; with
         * the common store the kernel writes dst's type there itself. */
        const int in_dst = !tile || e->common;
        const int dst_blk16 = in_dst && cf->dst_cblk == 2 * DW_VLEN;
        a.dst_bs = dst_blk16 ? cf->dst_s[DW_C] : 0;
        if (in_dst) {
            a.dst = e->common ? (float *)((char *)e->dst +
                                          dst_off * e->common->dt_bytes)
                              : e->dst + dst_off;
            a.dst_sw = cf->dst_s[DW_W];
            a.dst_cv = dst_blk16 ? DW_VLEN : cf->dst_s[DW_C];
        } else {
            a.dst = tile;
            a.dst_sw = tsr_rnd_up(nc, DW_VLEN);
            a.dst_cv = DW_VLEN;
        }
        a.store_s32 = !e->common && tile_as_s32(e, tile != NULL);
        if ((a.src_bs || a.dst_bs) && !cf->row_blocks16)
            row_by_blocks16(cf, &a);
        else
            cf->row(&a);
        if (cf->ep_identity || cf->ep_in_kernel || e->common)
            continue;
        pos[sh->ndims - 1] = ow0;
        tile_epilogue(e, pos, a.dst, a.dst_sw, !tile, a.store_s32, dst_off, c0,
                      nc, a.now);
    }
}

/* User weights in the kernel's layout (weights_any, strides packed_s:
 * the channel innermost), threads splitting the taps; each tap's channels
 * in one loop, which vectorizes when the user's are contiguous too ("any"
 * int8 weights, converted per execution: a sixth of dw:s8's time with a
 * division per value). */
static void repack_weights(const dw_conv_conf_t *cf, const void *wei,
                           tsr_data_type_t dt, float *packed) {
    const conv_sizes_t *sh = &cf->sh;
    const tsr_dim_t KS = sh->KD * sh->KH * sh->KW;
    const tsr_dim_t *ps = cf->packed_s, *ws = cf->wei_s;
#pragma omp for schedule(static)
    for (tsr_dim_t k = 0; k < KS; k++) {
        const tsr_dim_t kw = k % sh->KW, kh = (k / sh->KW) % sh->KH,
                        kd = k / (sh->KW * sh->KH);
        const tsr_dim_t from =
                cf->wei_off0 + kd * ws[1] + kh * ws[2] + kw * ws[3];
        float *to = packed + kd * ps[1] + kh * ps[2] + kw * ps[3];
        if (dt == tsr_s8 && ws[0] == 1) {
            const int8_t *w = (const int8_t *)wei + from;
            for (tsr_dim_t g = 0; g < cf->C; g++)
                to[g] = (float)w[g];
        } else if (dt == tsr_s8) {
            const int8_t *w = (const int8_t *)wei + from;
            for (tsr_dim_t g = 0; g < cf->C; g++)
                to[g] = (float)w[g * ws[0]];
        } else {
            const float *w = (const float *)wei + from;
            for (tsr_dim_t g = 0; g < cf->C; g++)
                to[g] = w[g * ws[0]];
        }
    }
}

/* How many output rows from oh (below oh_end) one call takes: 1, or
 * with row_bands those whose kh taps are oh's. */
static tsr_dim_t same_taps_rows(const dw_conv_conf_t *cf, tsr_dim_t oh,
                                tsr_dim_t oh_end) {
    if (!cf->row_bands)
        return 1;
    const conv_sizes_t *sh = &cf->sh;
    tsr_dim_t i0, lo, hi, nh = 1;
    tap_range(oh, sh->KSH, sh->padT, cf->DH, sh->KH, sh->IH, &i0, &lo, &hi);
    for (; oh + nh < oh_end; nh++) {
        tsr_dim_t lo1, hi1;
        tap_range(oh + nh, sh->KSH, sh->padT, cf->DH, sh->KH, sh->IH, &i0, &lo1,
                  &hi1);
        if (lo1 != lo || hi1 != hi)
            break;
    }
    return nh;
}

static tsr_status_t dw_conv_execute(const struct tsr_primitive_desc *pd,
                                    const tsr_exec_ctx_t *ctx) {
    const dw_conv_conf_t *cf = pd->impl_data;
    const conv_sizes_t *sh = &cf->sh;
    char *scratch = ctx->scratchpad;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&cf->ep, ctx, &rt);
    exec_t e;
    e.cf = cf;
    e.rt = &rt;
    const int int8 = cf->src_dt != tsr_f32;
    e.src = int8 ? NULL : tsr_ctx_data(ctx, TSR_ARG_SRC);
    e.src_int8 = int8 ? tsr_ctx_data(ctx, TSR_ARG_SRC) : NULL;
    e.src_zp = cf->src_zp ? tsr_ctx_data(ctx,
                                         TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC)
                          : NULL;
    e.dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    /* The common store's operands from channel 0 on. */
    tsr_epilogue_common_t common;
    const tsr_dim_t pos0[TSR_MAX_NDIMS] = {0};
    e.common = cf->ep_common_form && tsr_epilogue_common_init(&cf->ep, &rt,
                                                              pos0, &common)
                       ? &common
                       : NULL;
    const void *user_wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    float *packed = (float *)scratch;
    if (cf->wei_direct) {
        e.wei = (const float *)user_wei + cf->wei_off0;
        memcpy(e.wei_s, cf->wei_s, sizeof(e.wei_s));
    } else {
        e.wei = packed;
        memcpy(e.wei_s, cf->packed_s, sizeof(e.wei_s));
    }
    /* Items over (n, band, od, chunk), chunk fastest so a row's pixels
     * are used whole while cached; or (n, chunk, od, band) (rows_inner).
     * Bands of band_h output rows. */
    const tsr_dim_t nchunks = tsr_div_up(cf->C, cf->chunk_c);
    const tsr_dim_t nbands = tsr_div_up(sh->OH, cf->band_h);
    const tsr_dim_t items = sh->MB * nchunks * sh->OD * nbands;
#pragma omp parallel num_threads(cf->nthr)
    {
        if (!cf->wei_direct)
            repack_weights(cf, user_wei, pd->md[TSR_MD_WEIGHTS].data_type,
                           packed);
        /* No scratchpad at all when nothing is staged. */
        char *mine = scratch ? scratch + wei_bytes(cf) +
                                       (tile_bytes(cf) + rows_bytes(cf)) *
                                               (size_t)omp_get_thread_num()
                             : NULL;
        float *tile = cf->tile_floats ? (float *)mine : NULL;
        row_cache_t *rows =
                cf->rows_floats ? (row_cache_t *)(mine + tile_bytes(cf)) : NULL;
        if (rows)
            cache_reset(rows);
            /* No barrier of its own: the end of the region is one. */
#pragma omp for schedule(static) nowait
        for (tsr_dim_t i = 0; i < items; i++) {
            tsr_dim_t chunk, od, band;
            if (cf->rows_inner) {
                band = i % nbands;
                od = (i / nbands) % sh->OD;
                chunk = (i / (nbands * sh->OD)) % nchunks;
            } else {
                chunk = i % nchunks;
                od = (i / nchunks) % sh->OD;
                band = (i / (nchunks * sh->OD)) % nbands;
            }
            const tsr_dim_t n = i / (nbands * sh->OD * nchunks);
            const tsr_dim_t c0 = chunk * cf->chunk_c;
            const tsr_dim_t oh_end = TSR_MIN(sh->OH, (band + 1) * cf->band_h);
            for (tsr_dim_t oh = band * cf->band_h; oh < oh_end;) {
                const tsr_dim_t nh = same_taps_rows(cf, oh, oh_end);
                run_row(&e, tile, rows, n, od, oh, nh, c0,
                        TSR_MIN(cf->chunk_c, cf->C - c0));
                oh += nh;
            }
        }
    }
    return tsr_success;
}

const tsr_impl_t tsr_dw_convolution_f32_fwd_impl = {
        .name = "dw:f32",
        .isa = tsr_cpu_isa_generic,
        .init = dw_conv_init,
        .execute = dw_conv_execute,
        .fini = dw_conv_fini,
};

const tsr_impl_t tsr_dw_convolution_s8_fwd_impl = {
        .name = "dw:s8",
        .isa = tsr_cpu_isa_generic,
        .init = dw_conv_s8_init,
        .execute = dw_conv_execute,
        .fini = dw_conv_fini,
};
