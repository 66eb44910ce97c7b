/* im2col for the GEMM convolutions (layouts in gemm_conv_f32.h), for any
 * element size: elements are moved as bytes, so f32 and int8 sources share
 * it. Input points outside the source (padding) give the caller's pad
 * value of their channel, or zeros. Any plain source layout works;
 * channel-stride-1 sources copy whole channel runs. */
#include <string.h>

#include "cpu/conv/gemm_conv_f32.h"

/* First output index o in [0, n) with 0 <= o * stride + shift, and one
 * past the last with o * stride + shift < limit. */
static void valid_range(tsr_dim_t n, tsr_dim_t stride, tsr_dim_t shift,
                        tsr_dim_t limit, tsr_dim_t *begin, tsr_dim_t *end) {
    /* A padding near the int64 range makes shift so: no sums that could
     * overflow (shift > INT64_MIN, as the padding is at most INT64_MAX). */
    tsr_dim_t b = 0;
    if (shift < 0)
        b = -shift / stride + (-shift % stride != 0);
    tsr_dim_t e = 0, room;
    if (__builtin_sub_overflow(limit, shift, &room))
        e = n; /* limit - shift beyond int64: every o */
    else if (room > 0)
        e = room / stride + (room % stride != 0);
    *begin = b < n ? b : n;
    *end = e < n ? e : n;
    if (*end < *begin)
        *end = *begin;
}

/* out[i * out_step] = in[i * in_step] for i < cnt, elements of esz bytes
 * (the fixed-size memcpy calls compile to plain moves). */
static void copy_elems(char *out, tsr_dim_t out_step, const char *in,
                       tsr_dim_t in_step, tsr_dim_t cnt, size_t esz) {
    /* memcpy only pays off for runs of some length. */
    if (out_step == 1 && in_step == 1 && (size_t)cnt * esz >= 32) {
        memcpy(out, in, (size_t)cnt * esz);
        return;
    }
    const size_t os = (size_t)out_step * esz, is = (size_t)in_step * esz;
    switch (esz) {
    case 1:
        for (tsr_dim_t i = 0; i < cnt; i++)
            out[i * os] = in[i * is];
        break;
    case 2:
        for (tsr_dim_t i = 0; i < cnt; i++)
            memcpy(out + i * os, in + i * is, 2);
        break;
    default:
        for (tsr_dim_t i = 0; i < cnt; i++)
            memcpy(out + i * os, in + i * is, 4);
        break;
    }
}

/* out[i * out_step] = in[i * in_step] ^ 0x80 for i < cnt bytes. */
static void copy_flipped_bytes(char *out, tsr_dim_t out_step, const char *in,
                               tsr_dim_t in_step, tsr_dim_t cnt) {
    for (tsr_dim_t i = 0; i < cnt; i++)
        out[i * out_step] = (char)(in[i * in_step] ^ 0x80);
}

/* cnt padded elements at out with step out_step: pad[ic0 + i * pad_step],
 * or zeros without pad. */
static void fill_pad(char *out, tsr_dim_t out_step, const char *pad,
                     tsr_dim_t pad_step, tsr_dim_t cnt, size_t esz) {
    /* Most runs have no padding: no call for nothing. */
    if (cnt <= 0)
        return;
    if (pad) {
        copy_elems(out, out_step, pad, pad_step, cnt, esz);
    } else if (out_step == 1) {
        memset(out, 0, (size_t)cnt * esz);
    } else {
        for (tsr_dim_t i = 0; i < cnt; i++)
            memset(out + (size_t)(i * out_step) * esz, 0, esz);
    }
}

/* memcpy for the short runs of few-channel layers (e.g. 7 points of 3
 * channels): two overlapping fixed-size moves instead of a call, reading
 * and writing nothing outside the n bytes. */
static inline void copy_bytes(char *out, const char *in, size_t n) {
    if (n > 32) {
        memcpy(out, in, n);
    } else if (n >= 16) {
        memcpy(out, in, 16);
        memcpy(out + n - 16, in + n - 16, 16);
    } else if (n >= 8) {
        memcpy(out, in, 8);
        memcpy(out + n - 8, in + n - 8, 8);
    } else if (n >= 4) {
        memcpy(out, in, 4);
        memcpy(out + n - 4, in + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = in[i];
    }
}

/* Sixteen bytes with their sign bits flipped (a fixed-size loop the
 * compiler turns into one vector XOR). */
static inline void flip_16(char *out, const char *in) {
    unsigned char t[16];
    memcpy(t, in, 16);
    for (int i = 0; i < 16; i++)
        t[i] ^= 0x80;
    memcpy(out, t, 16);
}

/* copy_bytes with the sign bit of every byte flipped: s8 values as the u8
 * values 128 higher. Sixteen bytes at a time, the last sixteen
 * overlapping (the source is read again, so bytes written twice agree). */
static inline void copy_bytes_flip(char *out, const char *in, size_t n) {
    if (n < 16) {
        for (size_t i = 0; i < n; i++)
            out[i] = (char)(in[i] ^ 0x80);
        return;
    }
    for (size_t i = 0; i + 16 <= n; i += 16)
        flip_16(out + i, in + i);
    flip_16(out + n - 16, in + n - 16);
}

/* `npoints` padded kernel points of a dense (kic, channels dense) col
 * row: each is the group's pad row, or zeros. */
static void fill_pad_points(char *out, tsr_dim_t npoints, tsr_dim_t ICg,
                            const char *pad, size_t esz) {
    if (npoints <= 0)
        return;
    if (!pad) {
        memset(out, 0, (size_t)(npoints * ICg) * esz);
        return;
    }
    for (tsr_dim_t p = 0; p < npoints; p++)
        memcpy(out + (size_t)(p * ICg) * esz, pad, (size_t)ICg * esz);
}

/* What every gather of one call needs. */
typedef struct {
    const gemm_conv_conf_t *cf;
    const char *src_ng; /* image n, first channel of group g */
    const char *pad;
    size_t esz;
    int flip; /* bytes from the source get their sign bit flipped */
    gemm_conv_gather_s2_fn gather_s2; /* f32 stride-2 runs, or NULL */
    const char *src_end;              /* one past the source's last byte */
} gather_t;

/* A run of bytes from the source into col, flipped when the gather
 * says so. */
static inline void copy_source_bytes(const gather_t *gt, char *out,
                                     const char *in, size_t n) {
    if (gt->flip)
        copy_bytes_flip(out, in, n);
    else
        copy_bytes(out, in, n);
}

/* copy_elems from the source into col, flipped when the gather says so
 * (then the elements are bytes). */
static void copy_source_elems(const gather_t *gt, char *out, tsr_dim_t out_step,
                              const char *in, tsr_dim_t in_step,
                              tsr_dim_t cnt) {
    if (gt->flip)
        copy_flipped_bytes(out, out_step, in, in_step, cnt);
    else
        copy_elems(out, out_step, in, in_step, cnt, gt->esz);
}

/* One kernel row (kd, kh) of a col row for channels-last sources whose
 * kernel points along w are adjacent in memory (kic order, channels dense,
 * no w dilation): the valid points [kb, ke) are one contiguous copy from
 * the input point `shift` + kb of the row. */
static void copy_kernel_row_dense(const gather_t *gt, const char *in_row,
                                  tsr_dim_t shift, tsr_dim_t kb, tsr_dim_t ke,
                                  char *out) {
    const gemm_conv_conf_t *cf = gt->cf;
    const tsr_dim_t c = cf->sh.ICg;
    const size_t esz = gt->esz;
    fill_pad_points(out, kb, c, gt->pad, esz);
    if (ke > kb)
        copy_source_bytes(gt, out + (size_t)(kb * c) * esz,
                          in_row + (size_t)((shift + kb) * c) * esz,
                          (size_t)((ke - kb) * c) * esz);
    fill_pad_points(out + (size_t)(ke * c) * esz, cf->sh.KW - ke, c, gt->pad,
                    esz);
}

/* im2col_rows of a 1x1 convolution with stride 1 and no padding over a
 * channels-last source: each col row is its own point's channels, so the
 * rows are copies (gathered only to flip an s8 source's sign bits) that
 * need none of the general walk's per-point work. */
static void copy_unit_rows(const gather_t *gt, tsr_dim_t sp0,
                           tsr_dim_t sp_begin, tsr_dim_t sp_end, char *col) {
    const gemm_conv_conf_t *cf = gt->cf;
    const tsr_dim_t *s = cf->src_s;
    const size_t esz = gt->esz, row_bytes = (size_t)cf->K * esz;
    tsr_dim_t img = sp_begin / cf->SP, pt = sp_begin % cf->SP;
    for (tsr_dim_t sp = sp_begin; sp < sp_end; sp++) {
        char *row = col + (size_t)((sp - sp0) * cf->col_ld) * esz;
        copy_source_bytes(
                gt, row,
                gt->src_ng + (size_t)(img * s[CONV_N] + pt * s[CONV_W]) * esz,
                row_bytes);
        if (cf->col_ld > cf->K)
            memset(row + row_bytes, 0, (size_t)(cf->col_ld - cf->K) * esz);
        if (++pt == cf->SP) {
            pt = 0;
            img++;
        }
    }
}

/* Channels-last dst: row (sp - sp0) of col holds the K values of point sp
 * (point sp % SP of the image sp / SP after the call's first, under
 * batch_rows). */
static void im2col_rows(const gather_t *gt, tsr_dim_t sp0, tsr_dim_t sp_begin,
                        tsr_dim_t sp_end, char *col) {
    const gemm_conv_conf_t *cf = gt->cf;
    const tsr_dim_t *s = cf->src_s;
    const size_t esz = gt->esz;
    if (s[CONV_C] == 1 && gemm_conv_src_direct(cf)) {
        copy_unit_rows(gt, sp0, sp_begin, sp_end, col);
        return;
    }
    const tsr_dim_t ic_step = cf->kic ? 1 : cf->KS;
    const int dense_w = cf->kic && s[CONV_C] == 1 &&
                        (cf->sh.IW == 1 || s[CONV_W] == cf->sh.ICg) &&
                        cf->DW == 1;
    const size_t kw_bytes = (size_t)(cf->sh.KW * cf->sh.ICg) * esz;
    gemm_conv_point_t p = gemm_conv_point_of(cf, sp_begin);
    for (tsr_dim_t sp = sp_begin; sp < sp_end;
         sp++, gemm_conv_next_point(cf, &p)) {
        const char *src_n = gt->src_ng + (size_t)(p.img * s[CONV_N]) * esz;
        char *row = col + (size_t)((sp - sp0) * cf->col_ld) * esz;
        /* A few bytes (K quads): a loop, not a memset call per point. */
        for (size_t b = (size_t)cf->K * esz; b < (size_t)cf->col_ld * esz; b++)
            row[b] = 0;
        tsr_dim_t id0, ih0, shift;
        gemm_conv_src_origin(cf, &p, &id0, &ih0, &shift);
        /* Dense w: the kw taps inside the input, [kb, ke), are the same
         * for every kernel row. */
        tsr_dim_t kb, ke;
        valid_range(cf->sh.KW, 1, shift, cf->sh.IW, &kb, &ke);
        const int all_kw = kb == 0 && ke == cf->sh.KW;
        if (dense_w && all_kw && cf->sh.KD == 1 && id0 >= 0 &&
            id0 < cf->sh.ID && ih0 >= 0 &&
            ih0 + (cf->sh.KH - 1) * cf->DH < cf->sh.IH) {
            /* Every kernel row inside (most points of a first layer, K =
             * 147 in 21-byte rows): one copy each, nothing else. */
            const char *in =
                    src_n + (size_t)(id0 * s[CONV_D] + ih0 * s[CONV_H] +
                                     shift * cf->sh.ICg) *
                                    esz;
            for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++)
                copy_source_bytes(gt, row + kh * kw_bytes,
                                  in + (size_t)(kh * cf->DH * s[CONV_H]) * esz,
                                  kw_bytes);
            continue;
        }
        tsr_dim_t kidx = 0;
        for (tsr_dim_t kd = 0; kd < cf->sh.KD; kd++) {
            const tsr_dim_t id = id0 + kd * cf->DD;
            for (tsr_dim_t kh = 0; kh < cf->sh.KH; kh++) {
                const tsr_dim_t ih = ih0 + kh * cf->DH;
                const int row_inside =
                        id >= 0 && id < cf->sh.ID && ih >= 0 && ih < cf->sh.IH;
                if (dense_w) {
                    char *out = row + (size_t)(kidx * cf->sh.ICg) * esz;
                    if (!row_inside) {
                        fill_pad_points(out, cf->sh.KW, cf->sh.ICg, gt->pad,
                                        esz);
                    } else {
                        const char *in_row =
                                src_n +
                                (size_t)(id * s[CONV_D] + ih * s[CONV_H]) * esz;
                        if (all_kw)
                            copy_source_bytes(
                                    gt, out,
                                    in_row + (size_t)(shift * cf->sh.ICg) * esz,
                                    kw_bytes);
                        else
                            copy_kernel_row_dense(gt, in_row, shift, kb, ke,
                                                  out);
                    }
                    kidx += cf->sh.KW;
                    continue;
                }
                for (tsr_dim_t kw = 0; kw < cf->sh.KW; kw++, kidx++) {
                    const tsr_dim_t iw = shift + kw * cf->DW;
                    char *out =
                            row + (size_t)gemm_conv_k_index(cf, kidx, 0) * esz;
                    if (!row_inside || iw < 0 || iw >= cf->sh.IW) {
                        fill_pad(out, ic_step, gt->pad, 1, cf->sh.ICg, esz);
                        continue;
                    }
                    const char *in =
                            src_n + (size_t)(id * s[CONV_D] + ih * s[CONV_H] +
                                             iw * s[CONV_W]) *
                                            esz;
                    copy_source_elems(gt, out, ic_step, in, s[CONV_C],
                                      cf->sh.ICg);
                }
            }
        }
    }
}

/* Channels-first dst: row k of col (len entries) holds value k of every
 * point of the chunk; rows [k_begin, k_end) are filled one output row
 * segment (fixed od, oh) at a time. */
static void im2col_cols(const gather_t *gt, tsr_dim_t sp0, tsr_dim_t len,
                        tsr_dim_t k_begin, tsr_dim_t k_end, char *col) {
    const gemm_conv_conf_t *cf = gt->cf;
    const tsr_dim_t *s = cf->src_s;
    const size_t esz = gt->esz;
    const tsr_dim_t in_step = cf->sh.KSW * s[CONV_W];
    for (tsr_dim_t k = k_begin; k < k_end; k++) {
        const tsr_dim_t ic = cf->kic ? k % cf->sh.ICg : k / cf->KS;
        const tsr_dim_t kidx = cf->kic ? k / cf->sh.ICg : k % cf->KS;
        const tsr_dim_t kw = kidx % cf->sh.KW,
                        kh = (kidx / cf->sh.KW) % cf->sh.KH,
                        kd = kidx / (cf->sh.KW * cf->sh.KH);
        char *row = col + (size_t)(k * len) * esz;
        /* Every padded element of this row is the pad value of ic. */
        const char *pad = gt->pad ? gt->pad + (size_t)ic * esz : NULL;
        const tsr_dim_t shift_w = kw * cf->DW - cf->sh.padL;
        tsr_dim_t wb, we;
        valid_range(cf->sh.OW, cf->sh.KSW, shift_w, cf->sh.IW, &wb, &we);
        const char *in_c = gt->src_ng + (size_t)(ic * s[CONV_C]) * esz;
        tsr_dim_t ow0 = sp0 % cf->sh.OW, oh = (sp0 / cf->sh.OW) % cf->sh.OH,
                  od = sp0 / (cf->sh.OW * cf->sh.OH);
        for (tsr_dim_t j = 0; j < len;) {
            tsr_dim_t seg = cf->sh.OW - ow0;
            if (seg > len - j)
                seg = len - j;
            const tsr_dim_t id = od * cf->sh.KSD - cf->sh.padF + kd * cf->DD;
            const tsr_dim_t ih = oh * cf->sh.KSH - cf->sh.padT + kh * cf->DH;
            char *out = row + (size_t)j * esz;
            /* The segment covers ow in [ow0, ow0 + seg); inputs exist for
             * ow in [wb, we). */
            tsr_dim_t vb = wb > ow0 ? wb : ow0;
            tsr_dim_t ve = we < ow0 + seg ? we : ow0 + seg;
            if (id < 0 || id >= cf->sh.ID || ih < 0 || ih >= cf->sh.IH ||
                ve < vb)
                vb = ve = ow0;
            fill_pad(out, 1, pad, 0, vb - ow0, esz);
            if (ve > vb) {
                const char *in =
                        in_c +
                        (size_t)(id * s[CONV_D] + ih * s[CONV_H] +
                                 (vb * cf->sh.KSW + shift_w) * s[CONV_W]) *
                                esz;
                if (in_step == 2 && gt->gather_s2)
                    gt->gather_s2(
                            (float *)(void *)(out + (size_t)(vb - ow0) * esz),
                            (const float *)(const void *)in, ve - vb,
                            (const float *)(const void *)gt->src_end);
                else
                    copy_source_elems(gt, out + (size_t)(vb - ow0) * esz, 1, in,
                                      in_step, ve - vb);
            }
            fill_pad(out + (size_t)(ve - ow0) * esz, 1, pad, 0, ow0 + seg - ve,
                     esz);
            j += seg;
            ow0 = 0;
            if (++oh == cf->sh.OH) {
                oh = 0;
                od++;
            }
        }
    }
}

/* Part `part` of `nparts` of [0, n). */
static void split(tsr_dim_t n, int nparts, int part, tsr_dim_t *begin,
                  tsr_dim_t *end) {
    const tsr_dim_t q = n / nparts, r = n % nparts;
    *begin = part * q + (part < r ? part : r);
    *end = *begin + q + (part < r);
}

void gemm_conv_im2col_elems(const gemm_conv_conf_t *cf, const void *src,
                            size_t elem_size, const void *pad, tsr_dim_t n,
                            tsr_dim_t g, tsr_dim_t sp0, tsr_dim_t len, int part,
                            int nparts, void *col) {
    const int f32 = elem_size == sizeof(float);
    const gather_t gt = {
            cf,
            (const char *)src + (size_t)(cf->src_off0 + n * cf->src_s[CONV_N] +
                                         g * cf->sh.ICg * cf->src_s[CONV_C]) *
                                        elem_size,
            pad,
            elem_size,
            cf->col_flip_sign && elem_size == 1,
            f32 ? cf->gather_s2 : NULL,
            (const char *)src + (size_t)cf->src_nelems * elem_size};
    tsr_dim_t b, e;
    if (cf->dst_cl) {
        split(len, nparts, part, &b, &e);
        im2col_rows(&gt, sp0, sp0 + b, sp0 + e, col);
    } else {
        split(cf->K, nparts, part, &b, &e);
        im2col_cols(&gt, sp0, len, b, e, col);
    }
}
