/* The source rows a GEMM convolution reads by taps (no im2col), shared by
 * "gemm:f32" and "gemm:s8". */
#include "cpu/conv/gemm_conv_f32.h"

/* 1 when every tap of the point with source origin (id, ih, iw) reads
 * inside the source. */
static int all_taps_inside(const gemm_conv_conf_t *cf, tsr_dim_t id,
                           tsr_dim_t ih, tsr_dim_t iw) {
    const conv_sizes_t *sh = &cf->sh;
    return gemm_conv_src_inside(cf, id, ih, iw) &&
           gemm_conv_src_inside(cf, id + (sh->KD - 1) * cf->DD,
                                ih + (sh->KH - 1) * cf->DH,
                                iw + (sh->KW - 1) * cf->DW);
}

/* row[i] = at + i * step for i < n. */
static inline __attribute__((always_inline)) void
spaced_rows(const void **row, const char *at, tsr_dim_t step, int n) {
    for (int i = 0; i < n; i++)
        row[i] = at + i * step;
}

/* The rows of a full tile of points p .. p + mr - 1 along one output row
 * when all their taps read inside the source (most tiles of a layer):
 * evenly spaced, one tap after another. Returns the taps listed, or -1
 * when the tile is not such. */
static int64_t row_tile_rows(const gemm_conv_tap_rows_t *t,
                             const gemm_conv_point_t *p, int mr, int32_t *taps,
                             const void **rows) {
    const gemm_conv_conf_t *cf = t->cf;
    const conv_sizes_t *sh = &cf->sh;
    if (p->ow + mr > sh->OW)
        return -1;
    tsr_dim_t id0, ih0, iw0;
    gemm_conv_src_origin(cf, p, &id0, &ih0, &iw0);
    if (!all_taps_inside(cf, id0, ih0, iw0) ||
        !all_taps_inside(cf, id0, ih0, iw0 + (mr - 1) * sh->KSW))
        return -1;
    const size_t es = t->elem_size;
    const tsr_dim_t sd = cf->src_s[CONV_D] * (tsr_dim_t)es,
                    shh = cf->src_s[CONV_H] * (tsr_dim_t)es,
                    sw = cf->src_s[CONV_W] * (tsr_dim_t)es;
    const char *at0 = t->src_g + (t->n + p->img) * cf->src_s[CONV_N] * es +
                      id0 * sd + ih0 * shh + iw0 * sw;
    const tsr_dim_t step = sh->KSW * sw;
    int32_t tap = 0;
    for (tsr_dim_t kd = 0; kd < sh->KD; kd++)
        for (tsr_dim_t kh = 0; kh < sh->KH; kh++)
            for (tsr_dim_t kw = 0; kw < sh->KW; kw++, tap++) {
                const char *at = at0 + kd * cf->DD * sd + kh * cf->DH * shh +
                                 kw * cf->DW * sw;
                const void **row = rows + tap * mr;
                /* The usual tile heights as constants: the stores then
                 * unroll (a tenth of a 64-channel 3x3 int8 layer was
                 * spent here with a loop). */
                if (mr == 6)
                    spaced_rows(row, at, step, 6);
                else if (mr == 12)
                    spaced_rows(row, at, step, 12);
                else
                    spaced_rows(row, at, step, mr);
                taps[tap] = tap;
            }
    return tap;
}

/* The first point of the m0-th row of the item (t->cursor's when it is
 * there), in natural order. */
static gemm_conv_point_t first_point(const gemm_conv_tap_rows_t *t,
                                     int64_t m0) {
    if (t->cursor && t->cursor->m == m0)
        return t->cursor->p;
    return gemm_conv_point_of(t->cf, t->sp0 + m0);
}

/* Past the tile whose last point is `last`: the cursor at row m0 + m. */
static void advance_cursor(const gemm_conv_tap_rows_t *t, int64_t m0, int64_t m,
                           gemm_conv_point_t last) {
    if (!t->cursor)
        return;
    gemm_conv_next_point(t->cf, &last);
    t->cursor->m = m0 + m;
    t->cursor->p = last;
}

int64_t gemm_conv_tap_rows(const void *ctx, int64_t m0, int64_t m, int mr,
                           int32_t *taps, const void **rows) {
    enum { MAX_MR = 16 }; /* the mr of every kernel with taps */
    const gemm_conv_tap_rows_t *t = ctx;
    const gemm_conv_conf_t *cf = t->cf;
    const conv_sizes_t *sh = &cf->sh;
    /* Source strides in bytes. */
    const size_t es = t->elem_size;
    const tsr_dim_t sn = cf->src_s[CONV_N] * (tsr_dim_t)es,
                    sd = cf->src_s[CONV_D] * (tsr_dim_t)es,
                    shh = cf->src_s[CONV_H] * (tsr_dim_t)es,
                    sw = cf->src_s[CONV_W] * (tsr_dim_t)es;
    /* In natural order the points follow one another: no division per
     * point (with N = 64, 4% of a layer), nor per tile while the tiles
     * come in order. */
    gemm_conv_point_t p = {0, 0, 0, 0};
    if (!t->order) {
        p = first_point(t, m0);
        const int64_t listed =
                m == mr ? row_tile_rows(t, &p, mr, taps, rows) : -1;
        if (listed >= 0) {
            p.ow += mr - 1;
            advance_cursor(t, m0, m, p);
            return listed;
        }
    }
    /* Each point's image, the byte offset of its tap 0 (which may lie in
     * the padding: only inside taps make pointers) and the taps inside
     * the source along d, h and w. */
    const char *img[MAX_MR];
    tsr_dim_t off0[MAX_MR], dlo[MAX_MR], dhi[MAX_MR], hlo[MAX_MR], hhi[MAX_MR],
            wlo[MAX_MR], whi[MAX_MR];
    /* While every tap of every point so far reads inside (the tiles of
     * interior points in the padding order, say). */
    int interior = m == mr;
    for (int64_t i = 0; i < m; i++) {
        if (t->order)
            p = gemm_conv_point_of(
                    cf, gemm_conv_ordered_point(cf, t->order, t->sp0 + m0 + i));
        else if (i > 0)
            gemm_conv_next_point(cf, &p);
        tsr_dim_t id0, ih0, iw0;
        gemm_conv_src_origin(cf, &p, &id0, &ih0, &iw0);
        img[i] = t->src_g + (t->n + p.img) * sn;
        off0[i] = id0 * sd + ih0 * shh + iw0 * sw;
        conv_inside_taps(id0, cf->DD, sh->KD, sh->ID, &dlo[i], &dhi[i]);
        conv_inside_taps(ih0, cf->DH, sh->KH, sh->IH, &hlo[i], &hhi[i]);
        conv_inside_taps(iw0, cf->DW, sh->KW, sh->IW, &wlo[i], &whi[i]);
        interior = interior && dlo[i] == 0 && dhi[i] == sh->KD && hlo[i] == 0 &&
                   hhi[i] == sh->KH && wlo[i] == 0 && whi[i] == sh->KW;
    }
    if (!t->order)
        advance_cursor(t, m0, m, p);
    int64_t listed = 0;
    int32_t tap = 0;
    for (tsr_dim_t kd = 0; kd < sh->KD; kd++)
        for (tsr_dim_t kh = 0; kh < sh->KH; kh++) {
            /* Points whose kernel row (kd, kh) reads inside. */
            int row_in[MAX_MR];
            for (int64_t i = 0; i < m; i++)
                row_in[i] = kd >= dlo[i] && kd < dhi[i] && kh >= hlo[i] &&
                            kh < hhi[i];
            for (tsr_dim_t kw = 0; kw < sh->KW; kw++, tap++) {
                const tsr_dim_t off =
                        kd * cf->DD * sd + kh * cf->DH * shh + kw * cf->DW * sw;
                const void **row = rows + listed * mr;
                if (interior) {
                    for (int i = 0; i < mr; i++)
                        row[i] = img[i] + (off0[i] + off);
                    taps[listed++] = tap;
                    continue;
                }
                int any = !t->pad_is_zero;
                for (int i = 0; i < mr; i++) {
                    const int in =
                            i < m && row_in[i] && kw >= wlo[i] && kw < whi[i];
                    row[i] = in ? img[i] + (off0[i] + off) : t->pad;
                    any |= in;
                }
                if (any)
                    taps[listed++] = tap;
            }
        }
    return listed;
}

uint64_t gemm_conv_row_point_taps(const gemm_conv_conf_t *cf,
                                  const int32_t *order, tsr_dim_t q) {
    const conv_sizes_t *sh = &cf->sh;
    const gemm_conv_point_t p =
            gemm_conv_point_of(cf, gemm_conv_ordered_point(cf, order, q));
    tsr_dim_t id0, ih0, iw0, dlo, dhi, hlo, hhi, wlo, whi;
    gemm_conv_src_origin(cf, &p, &id0, &ih0, &iw0);
    conv_inside_taps(id0, cf->DD, sh->KD, sh->ID, &dlo, &dhi);
    conv_inside_taps(ih0, cf->DH, sh->KH, sh->IH, &hlo, &hhi);
    conv_inside_taps(iw0, cf->DW, sh->KW, sh->IW, &wlo, &whi);
    uint64_t mask = 0;
    for (tsr_dim_t kd = dlo; kd < dhi; kd++)
        for (tsr_dim_t kh = hlo; kh < hhi; kh++)
            for (tsr_dim_t kw = wlo; kw < whi; kw++)
                mask |= (uint64_t)1 << ((kd * sh->KH + kh) * sh->KW + kw);
    return mask;
}

uint64_t gemm_conv_row_tap_mask(const void *ctx, int64_t m) {
    const gemm_conv_tap_rows_t *t = ctx;
    const gemm_conv_conf_t *cf = t->cf;
    if (!t->pad_is_zero)
        return cf->KS >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << cf->KS) - 1;
    return gemm_conv_row_point_taps(cf, t->order, t->sp0 + m);
}

void gemm_conv_ordered_dst_rows(const gemm_conv_conf_t *cf,
                                const int32_t *order, tsr_dim_t n, tsr_dim_t g,
                                tsr_dim_t sp0, tsr_dim_t len,
                                int64_t *row_off) {
    for (tsr_dim_t i = 0; i < len; i++) {
        const tsr_dim_t p = gemm_conv_ordered_point(cf, order, sp0 + i);
        row_off[i] = gemm_conv_dst_offset(cf, n + p / cf->SP, g * cf->sh.OCg,
                                          p % cf->SP);
    }
}
