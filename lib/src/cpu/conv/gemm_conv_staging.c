/* The transposes of a channels-first layer computed channels-last by
 * "gemm:f32" (gemm_conv_staging_t in gemm_conv_f32.h): the source into a
 * channels-last copy, and the channels-last sums through the epilogue
 * into the channels-first dst. Pure copies around the GEMM, so results do
 * not depend on how the parts are cut. */
#include "common/isa.h"
#include "common/utils.h"
#include "cpu/conv/gemm_conv_f32.h"
#include "cpu/reorder/simple_reorder_tiled.h"

/* Source points per part unit: a unit's copy (points x IC) stays in L2
 * while its channels are walked 16 at a time. */
#define STAGE_SRC_POINTS 256
/* Dst points per unit: 16 channels of them fit the transpose buffer, and
 * the epilogue takes rows of this many in one call. */
#define STAGE_DST_POINTS 128
#define STAGE_CHANNELS 16

/* mat[w * ld + i] = rows[off[i] + w], i < t, w < n. */
static void gather(int avx2, const float *rows, const tsr_dim_t *off,
                   float *mat, tsr_dim_t ld, tsr_dim_t t, tsr_dim_t n) {
    if (avx2) {
        tiled_gather_transpose4_avx2(rows, off, mat, ld, t, n);
        return;
    }
    for (tsr_dim_t w = 0; w < n; w++)
        for (tsr_dim_t i = 0; i < t; i++)
            mat[w * ld + i] = rows[off[i] + w];
}

/* rows[off[i] + w] = mat[w * ld + i], i < t, w < n. */
static void scatter(int avx2, const float *mat, tsr_dim_t ld, float *rows,
                    const tsr_dim_t *off, tsr_dim_t t, tsr_dim_t n) {
    if (avx2) {
        tiled_scatter_transpose4_avx2(mat, ld, rows, off, t, n);
        return;
    }
    for (tsr_dim_t i = 0; i < t; i++)
        for (tsr_dim_t w = 0; w < n; w++)
            rows[off[i] + w] = mat[w * ld + i];
}

/* Units [*u0, *u1) of part `part` of `nparts` of `units`. */
static void part_range(tsr_dim_t units, int part, int nparts, tsr_dim_t *u0,
                       tsr_dim_t *u1) {
    *u0 = units * part / nparts;
    *u1 = units * (part + 1) / nparts;
}

/* Of a subsampled layer (gemm_conv_staging_t), channels c0 .. c0 + t - 1
 * of the len output points from p0 of one image (img_src: its first
 * value) into mat (point q at mat + q * ld). Each output row reads a run
 * of every KSW-th value of a source row: at stride 2, eight channels of
 * it at a time are gathered and transposed in registers; else the runs
 * are compacted into tmp (row i: channel c0 + i) and transposed from
 * there. */
static void stage_subsampled(const gemm_conv_conf_t *cf, int avx2,
                             const float *src, const float *img_src,
                             tsr_dim_t p0, tsr_dim_t len, tsr_dim_t c0,
                             tsr_dim_t t, float *mat, tsr_dim_t ld,
                             float *tmp) {
    const tsr_dim_t OW = cf->sh.OW, OH = cf->sh.OH, SW = cf->sh.KSW;
    const tsr_dim_t sc = cf->src_s[CONV_C];
    const float *src_end = src + cf->src_nelems;
    const int s2 = avx2 && SW == 2;
    const tsr_dim_t t8 = s2 ? t / 8 * 8 : 0;
    for (tsr_dim_t q = 0, run; q < len; q += run) {
        const tsr_dim_t p = p0 + q, ow = p % OW, oh = p / OW % OH,
                        od = p / OW / OH;
        run = OW - ow < len - q ? OW - ow : len - q;
        const float *in = img_src + od * cf->sh.KSD * cf->src_s[CONV_D] +
                          oh * cf->sh.KSH * cf->src_s[CONV_H] + ow * SW +
                          c0 * sc;
        for (tsr_dim_t i = 0; i < t8; i += 8)
            gemm_conv_gather_s2_transpose8_f32_avx2(
                    in + i * sc, sc, mat + q * ld + i, ld, run, src_end);
        for (tsr_dim_t i = t8; i < t; i++)
            for (tsr_dim_t w = 0; w < run; w++)
                tmp[i * len + q + w] = in[i * sc + w * SW];
    }
    if (t8 == t)
        return;
    tsr_dim_t off[STAGE_CHANNELS];
    for (tsr_dim_t i = t8; i < t; i++)
        off[i - t8] = i * len;
    gather(avx2, tmp, off, mat + t8, ld, t - t8, len);
}

void gemm_conv_stage_src(const gemm_conv_conf_t *cf, const float *src,
                         tsr_dim_t n0, tsr_dim_t images, int part, int nparts,
                         float *copy) {
    const int avx2 = tsr_mayiuse(tsr_cpu_isa_avx2);
    const int subsampled = cf->staging->subsampled;
    const tsr_dim_t IC = cf->sh.G * cf->sh.ICg;
    /* The points per image the copy holds. */
    const tsr_dim_t ISP =
            subsampled ? cf->SP : cf->sh.ID * cf->sh.IH * cf->sh.IW;
    const tsr_dim_t chunks = tsr_div_up(ISP, STAGE_SRC_POINTS);
    /* Fewer chunks than parts (one image of 49 points, say): each chunk's
     * channels are cut among the parts too, so no thread waits. */
    const tsr_dim_t cblocks = tsr_div_up(IC, STAGE_CHANNELS);
    const tsr_dim_t cgroups =
            images * chunks >= nparts ? 1 : TSR_MIN(cblocks, nparts);
    tsr_dim_t u0, u1, off[STAGE_CHANNELS];
    float tmp[STAGE_CHANNELS * STAGE_SRC_POINTS];
    part_range(images * chunks * cgroups, part, nparts, &u0, &u1);
    for (tsr_dim_t u = u0; u < u1; u++) {
        const tsr_dim_t chunk = u / cgroups, cg = u % cgroups;
        const tsr_dim_t img = chunk / chunks,
                        p0 = chunk % chunks * STAGE_SRC_POINTS;
        const tsr_dim_t len =
                ISP - p0 < STAGE_SRC_POINTS ? ISP - p0 : STAGE_SRC_POINTS;
        const float *img_src =
                src + cf->src_off0 + (n0 + img) * cf->src_s[CONV_N];
        float *mat = copy + (img * ISP + p0) * IC;
        const tsr_dim_t c_begin = cblocks * cg / cgroups * STAGE_CHANNELS,
                        c_end = TSR_MIN(IC, cblocks * (cg + 1) / cgroups *
                                                    STAGE_CHANNELS);
        for (tsr_dim_t c0 = c_begin; c0 < c_end; c0 += STAGE_CHANNELS) {
            const tsr_dim_t t =
                    IC - c0 < STAGE_CHANNELS ? IC - c0 : STAGE_CHANNELS;
            if (subsampled) {
                stage_subsampled(cf, avx2, src, img_src, p0, len, c0, t,
                                 mat + c0, IC, tmp);
                continue;
            }
            /* Point p of the image at offset p (its spatial dims are
             * linear with unit stride; see staging_wanted). */
            for (tsr_dim_t i = 0; i < t; i++)
                off[i] = (c0 + i) * cf->src_s[CONV_C];
            gather(avx2, img_src + p0, off, mat + c0, IC, t, len);
        }
    }
}

void gemm_conv_unstage_dst(const gemm_conv_conf_t *cf,
                           const tsr_epilogue_rt_t *rt, const float *copy,
                           tsr_dim_t n0, tsr_dim_t r0, tsr_dim_t r1,
                           tsr_dim_t oc0, tsr_dim_t oc1, int part, int nparts,
                           float *dst) {
    const int avx2 = tsr_mayiuse(tsr_cpu_isa_avx2);
    const tsr_dim_t OC = cf->sh.G * cf->sh.OCg, SP = cf->SP;
    float acc[STAGE_CHANNELS * STAGE_DST_POINTS];
    tsr_dim_t a, b, off[STAGE_CHANNELS];
    part_range(r1 - r0, part, nparts, &a, &b);
    for (tsr_dim_t r = r0 + a, len; r < r0 + b; r += len) {
        /* A run of points within one image. */
        const tsr_dim_t img = r / SP, sp0 = r % SP;
        len = r0 + b - r;
        if (len > SP - sp0)
            len = SP - sp0;
        if (len > STAGE_DST_POINTS)
            len = STAGE_DST_POINTS;
        const float *mat = copy + r * OC;
        for (tsr_dim_t c = oc0; c < oc1; c += STAGE_CHANNELS) {
            const tsr_dim_t t =
                    oc1 - c < STAGE_CHANNELS ? oc1 - c : STAGE_CHANNELS;
            if (cf->ep_identity || cf->ep_bias_only) {
                /* The results (the staged GEMM added the bias): straight
                 * into dst. */
                for (tsr_dim_t i = 0; i < t; i++)
                    off[i] = i * cf->dst_s[CONV_C];
                scatter(avx2, mat + c, OC,
                        dst + gemm_conv_dst_offset(cf, n0 + img, c, sp0), off,
                        t, len);
                continue;
            }
            for (tsr_dim_t i = 0; i < t; i++)
                off[i] = i * STAGE_DST_POINTS;
            scatter(avx2, mat + c, OC, acc, off, t, len);
            gemm_conv_store_cf_rows(cf, rt, acc, STAGE_DST_POINTS, n0 + img, c,
                                    sp0, t, len, dst);
        }
    }
}
