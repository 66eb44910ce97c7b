/* "direct:f32": forward f32 convolution computed directly (no im2col) on
 * channel-blocked layouts: source nCw8c / nChw8c / nCdhw8c or the 16-blocks
 * (or plain, e.g. a first layer's nchw or nhwc with few channels), weights
 * blocked by 8 or 16 output channels innermost (OIhw8i8o, OIhw16i16o,
 * Ohwi8o, grouped gOIhw8i8o...), destination channel-blocked (or plain).
 * "any" resolves to blocks of 8 (the AVX2 vector); with fewer than 8 input
 * channels to a plain source and Ohwi8o weights. This implementation comes
 * before gemm:f32 in the list: it takes the first layers (at most
 * DIRECT_FIRST_MAX_IC input channels, one group) in any layout it reads,
 * and leaves to gemm:f32 every other problem whose weights layout is open
 * and whose data is plain or open. Grouped problems need multiples of 8
 * channels per group; other channel counts are padded blocks.
 *
 * Work items are (image, group, output-channel vector group, od, rows of
 * oh), computed by one thread each in a fixed order (chunk groups of input
 * channels outer, tiles along w inner), so results do not depend on the
 * thread count. Along w, pixels whose kernel window lies inside the source
 * run in register tiles of ur pixels; the few border pixels run one at a
 * time with their own valid kw range; the kd and kh ranges are clipped per
 * row. The finished rows go through the shared epilogue (bias, scales,
 * post-ops) into dst; when that epilogue is at most a bias and dst has
 * whole vectors of contiguous channels (nChw8c, nhwc...), the tiles store
 * into dst themselves and add the bias (store_in_kernel). First layers use
 * their own tiles (direct_conv_f32_first_avx2.c). Kernel contract in
 * direct_conv_f32.h. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/convolution_pd.h"
#include "common/isa.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/conv/direct_conv_f32.h"

/* Weights bytes of one chunk group kept in L1 while a row is swept. */
#define WEI_L1_BYTES (16 << 10)
/* Output pixels of a work item's rows (accumulators: 128 bytes each). */
#define ROW_BLOCK_PIXELS 512
/* Work items per thread below which rows per item are halved. */
#define ITEMS_PER_THREAD 4
/* Entries of the per-group offset tables at most (8 MiB): more groups and
 * channels than any model has go to the other implementations. */
#define MAX_TABLE_ENTRIES ((int64_t)1 << 20)

/* ------------------------------------------------------------------------ */
/* Portable tile: the same loop nest as the AVX2 one on arrays of 8. */

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Four floats as one value (an SSE or NEON register): the compiler
 * scalar-replaces the accumulator array into registers. */
typedef float v4f __attribute__((vector_size(4 * sizeof(float))));
#define V4 4
#define NH (DIRECT_VLEN / V4) /* halves of a vector of 8 */

ALWAYS_INLINE void tile_loop_c(const direct_conv_conf_t *cf,
                               const direct_tile_t *t, const int ur,
                               const int nv, const tsr_dim_t src_ic,
                               const tsr_dim_t wei_ic) {
    v4f acc[DIRECT_MAX_UR][DIRECT_MAX_NV][NH];
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++) {
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++) {
#pragma GCC unroll 2
            for (int h = 0; h < NH; h++) {
                if (t->zero)
                    acc[p][v][h] = (v4f){0};
                else
                    memcpy(&acc[p][v][h],
                           t->acc + v * t->acc_vec + p * t->acc_pix + h * V4,
                           sizeof(v4f));
            }
        }
    }
    for (tsr_dim_t k = 0; k < t->nchunks; k++) {
        const int icn = k == t->nchunks - 1 ? t->last_ic : DIRECT_VLEN;
        const float *sc = t->src + t->src_chunk[k];
        const float *wc = t->wei + t->wei_chunk[k];
        for (tsr_dim_t kd = 0; kd < t->kd_n; kd++)
            for (tsr_dim_t kh = 0; kh < t->kh_n; kh++)
                for (tsr_dim_t kw = 0; kw < t->kw_n; kw++) {
                    const float *s = sc + kd * cf->src_kd + kh * cf->src_kh +
                                     kw * cf->src_kw;
                    const float *w = wc + kd * cf->wei_kd + kh * cf->wei_kh +
                                     kw * cf->wei_kw;
                    /* Base pointers per pixel and vector, channel offsets
                     * as displacements (as in the AVX2 tile). */
                    const float *sp[DIRECT_MAX_UR], *wp[DIRECT_MAX_NV];
#pragma GCC unroll 8
                    for (int p = 0; p < ur; p++)
                        sp[p] = s + p * cf->src_pix;
#pragma GCC unroll 4
                    for (int v = 0; v < nv; v++)
                        wp[v] = w + t->wei_vec[v];
                    for (int i = 0; i < icn; i++) {
                        v4f b[DIRECT_MAX_UR];
#pragma GCC unroll 8
                        for (int p = 0; p < ur; p++)
                            b[p] = (v4f){0} + sp[p][i * src_ic];
#pragma GCC unroll 4
                        for (int v = 0; v < nv; v++) {
#pragma GCC unroll 2
                            for (int h = 0; h < NH; h++) {
                                v4f wr;
                                memcpy(&wr, wp[v] + i * wei_ic + h * V4,
                                       sizeof(v4f));
#pragma GCC unroll 8
                                for (int p = 0; p < ur; p++)
                                    acc[p][v][h] += b[p] * wr;
                            }
                        }
                    }
                }
    }
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++) {
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++) {
#pragma GCC unroll 2
            for (int h = 0; h < NH; h++) {
                if (t->bias) {
                    v4f b;
                    memcpy(&b, t->bias + v * DIRECT_VLEN + h * V4, sizeof(b));
                    acc[p][v][h] += b;
                }
                memcpy(t->acc + v * t->acc_vec + p * t->acc_pix + h * V4,
                       &acc[p][v][h], sizeof(v4f));
            }
        }
    }
}

ALWAYS_INLINE void tile_body_c(const direct_conv_conf_t *cf,
                               const direct_tile_t *t, const int ur,
                               const int nv) {
    if (cf->src_ic == 1 && cf->wei_ic == DIRECT_VLEN)
        tile_loop_c(cf, t, ur, nv, 1, DIRECT_VLEN);
    else
        tile_loop_c(cf, t, ur, nv, cf->src_ic, cf->wei_ic);
}

/* Without AVX the 8-float vectors are pairs of SSE registers: sub-tiles
 * of up to 3 pixels x 2 vectors keep the accumulators in the 16 registers. */
#define C_SUB_UR 3
#define C_SUB_NV 2

static void tile_c_sub(const direct_conv_conf_t *cf, const direct_tile_t *t,
                       int ur, int nv) {
    DIRECT_TILE_DISPATCH(tile_body_c, ur, nv)
}

void direct_conv_tile_c(const direct_conv_conf_t *cf, const direct_tile_t *t,
                        int ur, int nv) {
    for (tsr_dim_t p0 = 0; p0 < t->ntiles * ur; p0 += C_SUB_UR)
        for (int v0 = 0; v0 < nv; v0 += C_SUB_NV) {
            direct_tile_t sub = *t;
            sub.ntiles = 1;
            sub.src = t->src + p0 * cf->src_pix;
            sub.acc = t->acc + p0 * t->acc_pix + v0 * t->acc_vec;
            sub.bias = t->bias ? t->bias + v0 * DIRECT_VLEN : NULL;
            for (int v = v0; v < nv; v++)
                sub.wei_vec[v - v0] = t->wei_vec[v];
            tile_c_sub(cf, &sub, (int)TSR_MIN(C_SUB_UR, t->ntiles * ur - p0),
                       TSR_MIN(C_SUB_NV, nv - v0));
        }
}

/* ------------------------------------------------------------------------ */
/* Layouts */

/* Channel block of an f32 data md: 1 plain, 8 or 16 for a single inner
 * block on the channels; 0 when the kernel cannot read it. */
static int data_block(const tsr_memory_desc_t *md) {
    if (md->format_kind != tsr_format_kind_blocked || md->data_type != tsr_f32)
        return 0;
    const tsr_blocking_desc_t *b = &md->blocking;
    if (b->inner_nblks == 0)
        return 1;
    if (b->inner_nblks == 1 && b->inner_idxs[0] == 1 &&
        (b->inner_blks[0] == 8 || b->inner_blks[0] == 16))
        return (int)b->inner_blks[0];
    return 0;
}

static int plain_or_any(const tsr_memory_desc_t *md) {
    return md_is_any(md) || data_block(md) == 1;
}

/* Open, or plain with the channels innermost (nwc, nhwc, ndhwc). */
static int channels_last_or_any(const tsr_memory_desc_t *md) {
    return md_is_any(md) ||
           (data_block(md) == 1 && md->blocking.strides[1] == 1);
}

/* Plain with the spatial dims innermost (ncw, nchw, ncdhw). */
static int channels_first(const tsr_memory_desc_t *md) {
    return !md_is_any(md) && data_block(md) == 1 && md->ndims > 2 &&
           md->blocking.strides[md->ndims - 1] == 1 &&
           md->blocking.strides[1] != 1;
}

/* f32 weights with 8 or 16 output channels innermost, optionally inside
 * 8 or 16 input-channel blocks; *ic_step is the distance of consecutive
 * input channels within a chunk of 8. */
static int weights_ok(const tsr_memory_desc_t *md, int with_groups,
                      tsr_dim_t *ic_step) {
    if (md->format_kind != tsr_format_kind_blocked || md->data_type != tsr_f32)
        return 0;
    const tsr_blocking_desc_t *b = &md->blocking;
    const int o = with_groups, i = with_groups + 1;
    const int nb = b->inner_nblks;
    if (nb < 1 || nb > 2 || b->inner_idxs[nb - 1] != o ||
        (b->inner_blks[nb - 1] != 8 && b->inner_blks[nb - 1] != 16))
        return 0;
    if (nb == 1) {
        *ic_step = b->strides[i];
        return 1;
    }
    if (b->inner_idxs[0] != i ||
        (b->inner_blks[0] != 8 && b->inner_blks[0] != 16))
        return 0;
    *ic_step = b->inner_blks[1];
    return 1;
}

/* "any": blocks of 8 on the channels (data), on i and o (weights), or the
 * plain logical order; with `last` >= 0 the outer dim `last` moves
 * innermost (i after the spatial dims: Ohwi8o). */
static tsr_status_t resolve_any(tsr_memory_desc_t *md, int nblks, int idx0,
                                int idx1, int last) {
    if (!md_is_any(md))
        return tsr_success;
    int order[TSR_MAX_NDIMS], n = 0;
    for (int d = 0; d < md->ndims; d++)
        if (d != last)
            order[n++] = d;
    if (last >= 0)
        order[n] = last;
    const tsr_dim_t blks[2] = {DIRECT_VLEN, DIRECT_VLEN};
    const int idxs[2] = {idx0, idx1};
    tsr_memory_desc_t built;
    const tsr_status_t st =
            md_init_blocked(&built, md->ndims, md->dims, md->data_type, order,
                            nblks, blks, idxs);
    if (st == tsr_success)
        *md = built;
    return st;
}

/* Outer strides of the spatial dims of a data or weights md as (d, h, w),
 * 0 for the dims the problem lacks; `first` is the first spatial dim. */
static void spatial_strides(const tsr_memory_desc_t *md, int first,
                            tsr_dim_t *s) {
    s[0] = s[1] = s[2] = 0;
    for (int d = first; d < md->ndims; d++)
        s[3 - (md->ndims - d)] = md->blocking.strides[d];
}

/* Element offset (offset0 included) of a point with one nonzero index. */
static tsr_dim_t axis_offset(const tsr_memory_desc_t *md, int dim,
                             tsr_dim_t idx) {
    tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
    pos[dim] = idx;
    return md_off_v(md, pos);
}

/* Weights scales mask over (g, oc) or (oc) as the epilogue's
 * (c / div) % mod of dst channel c; mod 0 when it has no such form. */
static void wei_scale_form(const struct tsr_primitive_desc *pd,
                           const conv_sizes_t *s, int64_t *div, int64_t *mod) {
    const int mask = pd->attr.scales[TSR_QARG_WEIGHTS].mask;
    const int g_bit = conv_with_groups(pd) ? 1 : 0;
    const int oc_bit = conv_with_groups(pd) ? 2 : 1;
    *div = 1;
    *mod = 1;
    if (mask & ~(g_bit | oc_bit))
        *mod = 0;
    else if ((mask & g_bit) && (mask & oc_bit))
        *mod = s->G * s->OCg;
    else if (mask & g_bit) {
        *div = s->OCg;
        *mod = s->G;
    } else if (mask & oc_bit)
        *mod = s->OCg;
}

/* ------------------------------------------------------------------------ */
/* Init */

static tsr_status_t check_problem(const struct tsr_primitive_desc *pd,
                                  const conv_sizes_t *s) {
    const tsr_convolution_desc_t *c = conv_desc(pd);
    if (!conv_is_fwd_direct(pd))
        return tsr_unimplemented;
    if (pd->attr.zero_points[TSR_QARG_SRC].set ||
        pd->attr.zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    if (c->src_desc.data_type != tsr_f32 ||
        c->weights_desc.data_type != tsr_f32 ||
        c->dst_desc.data_type != tsr_f32 ||
        (conv_with_bias(pd) && c->bias_desc.data_type != tsr_f32))
        return tsr_unimplemented;
    /* Groups must start on a vector of 8 channels. */
    if (s->G > 1 && (s->ICg % DIRECT_VLEN || s->OCg % DIRECT_VLEN))
        return tsr_unimplemented;
    return tsr_success;
}

static tsr_status_t resolve_layouts(struct tsr_primitive_desc *pd,
                                    const conv_sizes_t *s) {
    tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC],
                      *wei = &pd->md[TSR_MD_WEIGHTS];
    tsr_memory_desc_t *bia = &pd->md[TSR_MD_BIAS], *dst = &pd->md[TSR_MD_DST];
    const int o = conv_with_groups(pd);
    /* A first layer's few channels are read from the plain source, its
     * weights without padding channels: each vector's taps of a kernel row
     * are one contiguous run (Ohwi8o). */
    const int first = s->G == 1 && s->ICg < DIRECT_VLEN;
    /* This implementation comes before gemm:f32 in the list for the first
     * layers (few input channels), where it is the faster one with AVX2;
     * every other problem whose weights layout is left open and whose data
     * is plain or open goes on to gemm:f32. With AVX-512 so do first
     * layers of channels-last or open sources, which gemm:f32 reads by
     * kernel rows at twice the vector width (resnet_50:conv1 nhwc, 2
     * threads: 254 -> 449 GFLOPS; capped at AVX2 this one stays ahead,
     * 252 against 243), and of channels-first sources into a
     * channels-last or open dst, which gemm:f32 transposes to read them so
     * (mb32, 2 threads: 121 -> 268 GFLOPS; capped at AVX2 159 against
     * 147). Channels-first source and dst go to gemm:f32 from AVX2 on,
     * which transposes both (mb32, 2 threads: 84 -> 217 GFLOPS, capped at
     * AVX2 84 -> 126; the portable GEMM is 5 times slower than the
     * portable tiles here). */
    const int avx512 = tsr_mayiuse(tsr_cpu_isa_avx512_core);
    const int first_layer =
            s->G == 1 && s->ICg <= DIRECT_FIRST_MAX_IC &&
            !(avx512 && (channels_last_or_any(src) ||
                         (channels_first(src) && channels_last_or_any(dst)))) &&
            !(tsr_mayiuse(tsr_cpu_isa_avx2) && channels_first(src) &&
              channels_first(dst));
    if (!first_layer && md_is_any(wei) && plain_or_any(src) &&
        plain_or_any(dst))
        return tsr_unimplemented;
    if (resolve_any(src, first ? 0 : 1, 1, 0, -1) != tsr_success ||
        resolve_any(dst, 1, 1, 0, -1) != tsr_success ||
        (first ? resolve_any(wei, 1, o, 0, o + 1)
               : resolve_any(wei, 2, o + 1, o, -1)) != tsr_success)
        return tsr_unimplemented;
    if (conv_with_bias(pd) && resolve_any(bia, 0, 0, 0, -1) != tsr_success)
        return tsr_unimplemented;
    return tsr_success;
}

/* Strides, per-chunk and per-vector offsets. */
static tsr_status_t layout_conf(direct_conv_conf_t *cf,
                                const struct tsr_primitive_desc *pd) {
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC],
                            *wei = &pd->md[TSR_MD_WEIGHTS],
                            *dst = &pd->md[TSR_MD_DST];
    const conv_sizes_t *s = &cf->sh;
    const int o = conv_with_groups(pd);
    const int sblk = data_block(src), dblk = data_block(dst);
    tsr_dim_t wei_ic;
    if (!sblk || !dblk || !weights_ok(wei, o, &wei_ic))
        return tsr_unimplemented;
    tsr_dim_t sp[3];
    spatial_strides(src, 2, sp);
    cf->src_n = src->blocking.strides[0];
    cf->src_d = sp[0];
    cf->src_h = sp[1];
    cf->src_w = sp[2];
    cf->src_kd = (s->KDD + 1) * sp[0];
    cf->src_kh = (s->KDH + 1) * sp[1];
    cf->src_kw = (s->KDW + 1) * sp[2];
    cf->src_pix = s->KSW * sp[2];
    cf->src_ic = sblk == 1 ? src->blocking.strides[1] : 1;
    spatial_strides(dst, 2, sp);
    cf->dst_n = dst->blocking.strides[0];
    cf->dst_d = sp[0];
    cf->dst_h = sp[1];
    cf->dst_w = sp[2];
    cf->dst_c = dblk == 1 ? dst->blocking.strides[1] : 1;
    spatial_strides(wei, o + 2, sp);
    cf->wei_kd = sp[0];
    cf->wei_kh = sp[1];
    cf->wei_kw = sp[2];
    cf->wei_ic = wei_ic;
    cf->wei_g = o ? wei->blocking.strides[0] : 0;
    cf->wei_off0 = wei->offset0;

    for (tsr_dim_t g = 0; g < s->G; g++) {
        for (tsr_dim_t c = 0; c < cf->nchunks; c++)
            cf->src_chunk_off[g * cf->nchunks + c] =
                    axis_offset(src, 1, g * s->ICg + c * DIRECT_VLEN);
        for (tsr_dim_t v = 0; v < cf->nvec; v++)
            cf->dst_vec_off[g * cf->nvec + v] =
                    axis_offset(dst, 1, g * s->OCg + v * DIRECT_VLEN);
    }
    for (tsr_dim_t c = 0; c < cf->nchunks; c++)
        cf->wei_chunk_off[c] =
                axis_offset(wei, o + 1, c * DIRECT_VLEN) - wei->offset0;
    for (tsr_dim_t v = 0; v < cf->nvec; v++)
        cf->wei_vec_off[v] =
                axis_offset(wei, o, v * DIRECT_VLEN) - wei->offset0;
    cf->dst_pad_oc = dblk > 1 ? dst->padded_dims[1] : s->G * s->OCg;
    cf->dst_md = *dst;
    return tsr_success;
}

/* The reduction's passes over a row: a block of kernel rows (all of them
 * unless the kernel is large) of a group of chunks, whose weights stay in
 * L1. A first layer's few weights take all kernel rows in one pass. */
static void plan_passes(direct_conv_conf_t *cf) {
    const conv_sizes_t *s = &cf->sh;
    const tsr_dim_t nv = TSR_MIN(cf->nvec, DIRECT_MAX_NV);
    const tsr_dim_t chunk_ic = cf->nchunks == 1 ? cf->last_ic : DIRECT_VLEN;
    const tsr_dim_t kh_bytes = s->KD * s->KW * chunk_ic * nv * DIRECT_VLEN *
                               (tsr_dim_t)sizeof(float);
    cf->kh_block =
            cf->first_layer
                    ? s->KH
                    : TSR_MAX(1, TSR_MIN(s->KH, WEI_L1_BYTES / kh_bytes));
    cf->chunk_group = TSR_MAX(1, WEI_L1_BYTES / (kh_bytes * cf->kh_block));
}

/* Whether the tiles can store into dst themselves (see store_in_kernel):
 * no row buffer and no separate epilogue pass over dst. */
static void plan_store(direct_conv_conf_t *cf) {
    const conv_sizes_t *s = &cf->sh;
    const int simple_ep = tsr_epilogue_is_identity(&cf->ep) ||
                          tsr_epilogue_is_bias_only(&cf->ep);
    const int whole_vectors =
            s->OCg % DIRECT_VLEN == 0 && cf->dst_pad_oc == s->G * s->OCg;
    cf->dst_vec_step =
            cf->nvec > 1 ? cf->dst_vec_off[1] - cf->dst_vec_off[0] : 0;
    int uniform = 1;
    for (tsr_dim_t g = 0; g < s->G; g++)
        for (tsr_dim_t v = 0; v < cf->nvec; v++)
            uniform = uniform && cf->dst_vec_off[g * cf->nvec + v] ==
                                         cf->dst_vec_off[g * cf->nvec] +
                                                 v * cf->dst_vec_step;
    cf->store_in_kernel =
            simple_ep && whole_vectors && cf->dst_c == 1 && uniform;
}

static tsr_status_t conf_init(direct_conv_conf_t *cf,
                              struct tsr_primitive_desc *pd) {
    const conv_sizes_t *s = &cf->sh;
    tsr_status_t st = layout_conf(cf, pd);
    if (st != tsr_success)
        return st;
    int64_t div, mod;
    wei_scale_form(pd, s, &div, &mod);
    st = tsr_epilogue_init(&cf->ep, &pd->attr, &pd->md[TSR_MD_DST],
                           conv_with_bias(pd) ? &pd->md[TSR_MD_BIAS] : NULL, 1,
                           div, mod);
    if (st != tsr_success)
        return st;
    cf->ep_uniform_w = tsr_epilogue_uniform_along(&cf->ep, s->ndims - 1);
    cf->use_avx2 = tsr_mayiuse(tsr_cpu_isa_avx2);
    cf->first_layer = cf->nchunks == 1 && cf->last_ic <= DIRECT_FIRST_MAX_IC &&
                      cf->wei_ic == DIRECT_VLEN;
    plan_passes(cf);
    plan_store(cf);
    cf->nthr = omp_get_max_threads();
    const tsr_dim_t row_floats =
            md_mul_elems(DIRECT_MAX_NV * DIRECT_VLEN, s->OW);
    if (row_floats < 0)
        return tsr_unimplemented;
    cf->row_floats = tsr_rnd_up(row_floats, 16);
    /* Rows per work item: their accumulators stay in L2 while a chunk
     * group's weights stay in L1; fewer when that leaves threads idle. */
    cf->rows = TSR_MAX(1, TSR_MIN(s->OH, ROW_BLOCK_PIXELS / s->OW));
    const tsr_dim_t outer = s->MB * s->G * cf->nvg * s->OD;
    while (cf->rows > 1 &&
           outer * tsr_div_up(s->OH, cf->rows) < ITEMS_PER_THREAD * cf->nthr)
        cf->rows = tsr_div_up(cf->rows, 2);
    return tsr_success;
}

static tsr_status_t direct_init(struct tsr_primitive_desc *pd) {
    conv_sizes_t s;
    conv_sizes_init(&s, pd);
    tsr_status_t st = check_problem(pd, &s);
    if (st != tsr_success)
        return st;
    st = resolve_layouts(pd, &s);
    if (st != tsr_success)
        return st;
    if (!conv_src_offsets_fit(pd))
        return tsr_unimplemented;
    const tsr_dim_t nchunks = tsr_div_up(s.ICg, DIRECT_VLEN);
    const tsr_dim_t nvec = tsr_div_up(s.OCg, DIRECT_VLEN);
    /* The conf and its offset tables in one allocation. */
    int64_t entries;
    if (!tsr_mul_i64(s.G + 1, nchunks + nvec, &entries) ||
        entries > MAX_TABLE_ENTRIES)
        return tsr_unimplemented;
    const size_t tables = (size_t)entries;
    direct_conv_conf_t *cf =
            calloc(1, sizeof(*cf) + tables * sizeof(tsr_dim_t));
    if (!cf)
        return tsr_out_of_memory;
    cf->sh = s;
    cf->nchunks = nchunks;
    cf->last_ic = (int)(s.ICg - (nchunks - 1) * DIRECT_VLEN);
    cf->nvec = nvec;
    cf->nvg = tsr_div_up(nvec, DIRECT_MAX_NV);
    cf->src_chunk_off = (tsr_dim_t *)(cf + 1);
    cf->dst_vec_off = cf->src_chunk_off + s.G * nchunks;
    cf->wei_chunk_off = cf->dst_vec_off + s.G * nvec;
    cf->wei_vec_off = cf->wei_chunk_off + nchunks;
    st = conf_init(cf, pd);
    if (st != tsr_success) {
        free(cf);
        return st;
    }
    size_t thread_floats = 0;
    pd->scratchpad_size = 0;
    if (!cf->store_in_kernel &&
        (!tsr_mul_size((size_t)cf->rows, (size_t)cf->row_floats,
                       &thread_floats) ||
         !tsr_mul_size(thread_floats, sizeof(float) * (size_t)cf->nthr,
                       &pd->scratchpad_size))) {
        free(cf);
        return tsr_unimplemented;
    }
    pd->impl_data = cf;
    return tsr_success;
}

static void direct_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

/* ------------------------------------------------------------------------ */
/* Execution */

/* The valid kernel taps [lo, hi) of an output index whose window starts
 * at input index `start`, along a dim of `in` points with k taps `dil`
 * apart. */
static void tap_range(tsr_dim_t start, tsr_dim_t in, tsr_dim_t k, tsr_dim_t dil,
                      tsr_dim_t *lo, tsr_dim_t *hi) {
    *lo = start < 0 ? tsr_div_up(-start, dil) : 0;
    const tsr_dim_t last = in - 1 - start; /* largest valid k * dil */
    *hi = last < 0 ? 0 : TSR_MIN(k, last / dil + 1);
    if (*hi < *lo)
        *hi = *lo;
}

typedef struct {
    const direct_conv_conf_t *cf;
    const float *src, *wei;
    float *dst;
    const tsr_epilogue_rt_t *rt;
    const float *bias; /* for the tiles to add (store_in_kernel) */
    direct_tile_fn tile;
} exec_t;

/* The next tiles over `avail` pixels with full windows: *ntiles tiles of
 * the returned width. Whole tiles of ur_max, or one shorter tile for the
 * rest; a rest too short to hide the FMA latency is split with the tile
 * before it into two balanced ones. */
static int full_tiles(tsr_dim_t avail, int ur_max, int nv, tsr_dim_t *ntiles) {
    *ntiles = 1;
    if (avail < ur_max)
        return (int)avail;
    const tsr_dim_t rest = avail % ur_max;
    if (rest == 0 || rest * nv >= DIRECT_MIN_ACC) {
        *ntiles = avail / ur_max;
        return ur_max;
    }
    if (avail >= 2 * ur_max) {
        *ntiles = avail / ur_max - 1;
        return ur_max;
    }
    return (int)((avail + 1) / 2);
}

/* Accumulates the input-channel chunk group from chunk c0 and the kernel
 * rows [kh0, kh0 + kh_block) into output row (n, g, vector group vg, od,
 * oh) in `row`. */
static void compute_row(const exec_t *e, tsr_dim_t n, tsr_dim_t g, tsr_dim_t vg,
                        tsr_dim_t od, tsr_dim_t oh, tsr_dim_t c0, tsr_dim_t kh0,
                        float *row) {
    const direct_conv_conf_t *cf = e->cf;
    const conv_sizes_t *s = &cf->sh;
    const tsr_dim_t v0 = vg * DIRECT_MAX_NV;
    const int nv = (int)TSR_MIN(DIRECT_MAX_NV, cf->nvec - v0);
    const int ur_max = direct_conv_ur(nv);
    tsr_dim_t kd_lo, kd_hi, kh_lo, kh_hi;
    const tsr_dim_t id0 = od * s->KSD - s->padF, ih0 = oh * s->KSH - s->padT;
    tap_range(id0, s->ID, s->KD, s->KDD + 1, &kd_lo, &kd_hi);
    tap_range(ih0, s->IH, s->KH, s->KDH + 1, &kh_lo, &kh_hi);
    kh_lo = TSR_MAX(kh_lo, kh0);
    kh_hi = TSR_MAX(kh_lo, TSR_MIN(kh_hi, kh0 + cf->kh_block));
    direct_tile_t t;
    t.kd_n = kd_hi - kd_lo;
    t.kh_n = kh_hi - kh_lo;
    /* Without taps nothing is read: keep the pointers in range. */
    const int taps = t.kd_n > 0 && t.kh_n > 0;
    if (!taps)
        kd_lo = kh_lo = 0;
    const tsr_dim_t src_row =
            n * cf->src_n +
            (taps ? (id0 + kd_lo * (s->KDD + 1)) * cf->src_d +
                             (ih0 + kh_lo * (s->KDH + 1)) * cf->src_h
                  : 0);
    const float *wei_base = e->wei + cf->wei_off0 + g * cf->wei_g +
                            cf->wei_vec_off[v0] + kd_lo * cf->wei_kd +
                            kh_lo * cf->wei_kh;
    for (int v = 0; v < nv; v++)
        t.wei_vec[v] = cf->wei_vec_off[v0 + v] - cf->wei_vec_off[v0];
    /* Sums go to the row buffer, or straight into dst. */
    float *acc_row = row;
    t.acc_pix = DIRECT_VLEN;
    t.acc_vec = s->OW * DIRECT_VLEN;
    t.bias = NULL;
    if (cf->store_in_kernel) {
        acc_row = e->dst + n * cf->dst_n + od * cf->dst_d + oh * cf->dst_h +
                  cf->dst_vec_off[g * cf->nvec + v0];
        t.acc_pix = cf->dst_w;
        t.acc_vec = cf->dst_vec_step;
        const int last_pass = c0 + cf->chunk_group >= cf->nchunks &&
                              kh0 + cf->kh_block >= s->KH;
        t.bias = e->bias && last_pass ? e->bias + g * s->OCg + v0 * DIRECT_VLEN
                                      : NULL;
    }
    const tsr_dim_t DW = s->KDW + 1;
    /* Pixels before ow_full_end have their whole window inside on the
     * right. */
    const tsr_dim_t right = s->IW - (s->KW - 1) * DW + s->padL;
    const tsr_dim_t ow_full_end =
            right <= 0 ? 0 : TSR_MIN(s->OW, tsr_div_up(right, s->KSW));
    t.nchunks = TSR_MIN(cf->chunk_group, cf->nchunks - c0);
    t.last_ic = c0 + t.nchunks == cf->nchunks ? cf->last_ic : DIRECT_VLEN;
    t.src_chunk = cf->src_chunk_off + g * cf->nchunks + c0;
    t.wei_chunk = cf->wei_chunk_off + c0;
    t.zero = c0 == 0 && kh0 == 0;
    for (tsr_dim_t ow = 0; ow < s->OW;) {
        const tsr_dim_t iw0 = ow * s->KSW - s->padL;
        tsr_dim_t kw_lo, kw_hi;
        tap_range(iw0, s->IW, s->KW, DW, &kw_lo, &kw_hi);
        int ur = 1;
        t.ntiles = 1;
        if (kw_lo == 0 && kw_hi == s->KW)
            ur = full_tiles(ow_full_end - ow, ur_max, nv, &t.ntiles);
        t.kw_n = taps ? kw_hi - kw_lo : 0;
        if (t.kw_n == 0)
            kw_lo = 0;
        t.src = e->src +
                (t.kw_n ? src_row + (iw0 + kw_lo * DW) * cf->src_w : 0);
        t.wei = wei_base + kw_lo * cf->wei_kw;
        t.acc = acc_row + ow * t.acc_pix;
        e->tile(cf, &t, ur, nv);
        ow += ur * t.ntiles;
    }
}

/* Logical dst point (n, c, od, oh, ow) in the dst's rank. */
static void dst_pos(const direct_conv_conf_t *cf, tsr_dim_t n, tsr_dim_t c,
                    tsr_dim_t od, tsr_dim_t oh, tsr_dim_t ow, tsr_dim_t *pos) {
    const int nd = cf->sh.ndims;
    memset(pos, 0, sizeof(tsr_dim_t) * TSR_MAX_NDIMS);
    pos[0] = n;
    pos[1] = c;
    if (nd == 5)
        pos[2] = od;
    if (nd >= 4)
        pos[nd - 2] = oh;
    pos[nd - 1] = ow;
}

/* Epilogue from the row buffer into dst; zeros into padded channels. */
static void store_row(const exec_t *e, tsr_dim_t n, tsr_dim_t g, tsr_dim_t vg,
                      tsr_dim_t od, tsr_dim_t oh, float *row) {
    const direct_conv_conf_t *cf = e->cf;
    const conv_sizes_t *s = &cf->sh;
    const tsr_dim_t v0 = vg * DIRECT_MAX_NV;
    const int nv = (int)TSR_MIN(DIRECT_MAX_NV, cf->nvec - v0);
    const tsr_dim_t sp_off = n * cf->dst_n + od * cf->dst_d + oh * cf->dst_h;
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int v = 0; v < nv; v++) {
        const tsr_dim_t oc_g = (v0 + v) * DIRECT_VLEN;
        const tsr_dim_t len = TSR_MIN(DIRECT_VLEN, s->OCg - oc_g);
        const tsr_dim_t off = cf->dst_vec_off[g * cf->nvec + v0 + v] + sp_off;
        float *acc = row + v * s->OW * DIRECT_VLEN;
        dst_pos(cf, n, g * s->OCg + oc_g, od, oh, 0, pos);
        if (cf->ep_uniform_w) {
            tsr_epilogue_apply_rows(&cf->ep, e->rt, acc, DIRECT_VLEN, s->OW,
                                    len, pos, 1, e->dst, off, cf->dst_w,
                                    cf->dst_c);
            continue;
        }
        for (tsr_dim_t ow = 0; ow < s->OW; ow++) {
            pos[cf->sh.ndims - 1] = ow;
            tsr_epilogue_apply_row(&cf->ep, e->rt, acc + ow * DIRECT_VLEN, len,
                                   pos, 1, e->dst, off + ow * cf->dst_w,
                                   cf->dst_c);
        }
    }
    const tsr_dim_t OC = s->G * s->OCg;
    if (cf->dst_pad_oc > OC && g == s->G - 1 && vg == cf->nvg - 1)
        for (tsr_dim_t c = OC; c < cf->dst_pad_oc; c++) {
            dst_pos(cf, n, c, od, oh, 0, pos);
            float *d = e->dst + md_off_v(&cf->dst_md, pos);
            for (tsr_dim_t ow = 0; ow < s->OW; ow++)
                d[ow * cf->dst_w] = 0.f;
        }
}

static tsr_status_t direct_execute(const struct tsr_primitive_desc *pd,
                                   const tsr_exec_ctx_t *ctx) {
    const direct_conv_conf_t *cf = pd->impl_data;
    const conv_sizes_t *s = &cf->sh;
    float *scratch = ctx->scratchpad;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&cf->ep, ctx, &rt);
    const exec_t e = {cf,
                      tsr_ctx_data(ctx, TSR_ARG_SRC),
                      tsr_ctx_data(ctx, TSR_ARG_WEIGHTS),
                      tsr_ctx_data(ctx, TSR_ARG_DST),
                      &rt,
                      cf->store_in_kernel && rt.bias
                              ? (const float *)rt.bias + cf->ep.bias_md.offset0
                              : NULL,
                      !cf->use_avx2     ? direct_conv_tile_c
                      : cf->first_layer ? direct_conv_first_tile_avx2
                                        : direct_conv_tile_avx2};
    const tsr_dim_t nrb = tsr_div_up(s->OH, cf->rows);
    const tsr_dim_t items = s->MB * s->G * cf->nvg * s->OD * nrb;
#pragma omp parallel num_threads(cf->nthr)
    {
        float *buf =
                cf->store_in_kernel
                        ? NULL
                        : scratch + (size_t)omp_get_thread_num() *
                                            (size_t)(cf->rows * cf->row_floats);
#pragma omp for schedule(static)
        for (tsr_dim_t it = 0; it < items; it++) {
            /* Row blocks innermost: neighbours share source rows and
             * weights. A first layer's weights are few and its source
             * rows many: vector groups innermost, so a block of source
             * rows is read once from memory for all of them. */
            tsr_dim_t rb, vg, rest = it;
            if (cf->first_layer) {
                vg = rest % cf->nvg;
                rest /= cf->nvg;
                rb = rest % nrb;
                rest /= nrb;
            } else {
                rb = rest % nrb;
                rest /= nrb;
            }
            const tsr_dim_t od = rest % s->OD;
            rest /= s->OD;
            if (!cf->first_layer) {
                vg = rest % cf->nvg;
                rest /= cf->nvg;
            }
            const tsr_dim_t g = rest % s->G, n = rest / s->G;
            const tsr_dim_t oh0 = rb * cf->rows,
                            nrows = TSR_MIN(cf->rows, s->OH - oh0);
            /* The weights of a chunk group and kernel-row block stay in
             * L1 across the rows. */
            for (tsr_dim_t c0 = 0; c0 < cf->nchunks; c0 += cf->chunk_group)
                for (tsr_dim_t kh0 = 0; kh0 < s->KH; kh0 += cf->kh_block)
                    for (tsr_dim_t r = 0; r < nrows; r++)
                        compute_row(&e, n, g, vg, od, oh0 + r, c0, kh0,
                                    buf ? buf + r * cf->row_floats : NULL);
            if (buf)
                for (tsr_dim_t r = 0; r < nrows; r++)
                    store_row(&e, n, g, vg, od, oh0 + r,
                              buf + r * cf->row_floats);
        }
    }
    return tsr_success;
}

const tsr_impl_t tsr_direct_convolution_f32_fwd_impl = {
        .name = "direct:f32",
        .isa = tsr_cpu_isa_generic,
        .init = direct_init,
        .execute = direct_execute,
        .fini = direct_fini,
};
