/* Reorder between layouts whose blocks nest: nchw / nhwc <-> nChw16c /
 * nChw8c, oihw <-> OIhw16i16o-style weights, nchw <-> nhwc, nChw8c <->
 * nChw16c, OIhw8i8o <-> OIhw16i16o.
 *
 * One side, X, is walked in tiles that are contiguous in its memory: X's
 * inner blocks when it is blocked, or a run of its innermost dim when it is
 * plain. Because the other side's (A's) blocks nest with the tile, the
 * offset of each tile element in A is a fixed table plus a base. Tiles are
 * taken in rows along the outer dim that is cheapest to step, so that both
 * sides stream: A is read (or written) along its short strides into an f32
 * staging buffer in X's order (an AVX2 transpose when the elements are 4
 * bytes), the scales and zero points are applied there, and X is written
 * (or read) contiguously. Tiles that reach past the dims mask those
 * elements out and write the zeros of X's padding; rows that do go element
 * by element. */
#include <stdlib.h>

#include "common/memory_desc.h"
#include "common/utils.h"
#include "simple_reorder_tiled.h"

static tsr_status_t tiled_init(struct tsr_primitive_desc *pd) {
    tiled_plan_t *plan = NULL;
    const tsr_status_t st = tiled_plan_create(pd, &plan);
    if (st == tsr_success)
        pd->impl_data = plan;
    return st;
}

static void tiled_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
    pd->impl_data = NULL;
}

/* One work item: `rows` tiles along the row dim, starting at element
 * offsets x / a and logical point base_pos. `valid` flags the tile
 * elements inside the dims (NULL: all are). */
typedef struct {
    tsr_dim_t x, a, rows;
    tsr_dim_t base_pos[TSR_MAX_NDIMS];
    const unsigned char *valid;
} tiled_unit_t;

typedef struct {
    const tiled_plan_t *p;
    const reorder_conf_t *conf;
    const reorder_values_t *values;
    char *x_data, *a_data; /* the source one is only read */
    size_t x_esize, a_esize;
    tsr_data_type_t x_dt, a_dt;
} tiled_ctx_t;

/* Short rows of a scattered A tile: walk row by row with the offset table
 * (one loop over the tile) rather than tile element by tile element (one
 * short strided loop each). */
static int a_by_table(const tiled_plan_t *p, const tiled_unit_t *u) {
    return !p->a_tile_contiguous && u->rows < TILED_SHORT_ROW && !u->valid;
}

/* A's scattered tile with unit steps along the row, 4-byte elements:
 * the AVX2 transposes apply. */
static int a_by_transpose(const tiled_plan_t *p, const tiled_unit_t *u,
                          size_t esize) {
    return p->use_avx2 && esize == 4 && !p->a_tile_contiguous &&
           p->a_stride[p->row] == 1 && !u->valid;
}

/* Moves between A and a staging buffer in X's tile order (row-major over
 * rows x tile). Loops go along whichever of A's strides is short. Tile
 * elements outside the dims are never touched in A; in the buffer they
 * read as 0. */
static void a_to_buf(const tiled_ctx_t *c, tsr_data_type_t dt,
                     const tiled_unit_t *u, float *buf) {
    const tiled_plan_t *p = c->p;
    const tsr_dim_t step = p->a_stride[p->row], t = p->tile_size;
    const char *a = c->a_data;
    if (a_by_table(p, u)) {
        for (tsr_dim_t w = 0; w < u->rows; w++)
            for (tsr_dim_t i = 0; i < t; i++)
                buf[w * t + i] = tsr_load_f32_inline(
                        dt, a, u->a + w * step + p->a_tile_off[i]);
    } else if (dt == tsr_f32 && a_by_transpose(p, u, 4)) {
        tiled_gather_transpose4_avx2(a + (size_t)u->a * sizeof(float),
                                     p->a_tile_off, buf, t, t, u->rows);
    } else if (p->a_tile_contiguous && !u->valid) {
        tsr_cvt_to_f32_2d(dt, a + (size_t)u->a * c->a_esize, step, buf, t,
                          u->rows, t);
    } else {
        for (tsr_dim_t i = 0; i < t; i++) {
            if (u->valid && !u->valid[i]) {
                for (tsr_dim_t w = 0; w < u->rows; w++)
                    buf[w * t + i] = 0.f;
                continue;
            }
            tsr_cvt_to_f32_strided(
                    dt, a + (size_t)(u->a + p->a_tile_off[i]) * c->a_esize,
                    step, buf + i, t, u->rows);
        }
    }
}

static void buf_to_a(const tiled_ctx_t *c, const tiled_unit_t *u,
                     const float *buf) {
    const tiled_plan_t *p = c->p;
    const tsr_dim_t step = p->a_stride[p->row], t = p->tile_size;
    const tsr_round_mode_t mode = c->conf->round_mode;
    char *a = c->a_data;
    if (a_by_table(p, u)) {
        for (tsr_dim_t w = 0; w < u->rows; w++)
            for (tsr_dim_t i = 0; i < t; i++)
                tsr_store_f32_inline(c->a_dt, a,
                                     u->a + w * step + p->a_tile_off[i],
                                     buf[w * t + i], mode);
    } else if (c->a_dt == tsr_f32 && a_by_transpose(p, u, 4)) {
        tiled_scatter_transpose4_avx2(buf, t, a + (size_t)u->a * sizeof(float),
                                      p->a_tile_off, t, u->rows);
    } else if (p->a_tile_contiguous && !u->valid) {
        tsr_cvt_from_f32_2d(c->a_dt, buf, t, a + (size_t)u->a * c->a_esize,
                            step, u->rows, t, mode);
    } else {
        for (tsr_dim_t i = 0; i < t; i++)
            if (!u->valid || u->valid[i])
                tsr_cvt_from_f32_strided(c->a_dt, buf + i, t,
                                         a + (size_t)(u->a + p->a_tile_off[i]) *
                                                         c->a_esize,
                                         step, u->rows, mode);
    }
}

/* X is walked whole when its tile is a contiguous run; a plain X with
 * elements outside the dims is walked column by column, skipping them (a
 * blocked X's outside elements are its zero padding, always there). */
static int x_by_columns(const tiled_plan_t *p, const tiled_unit_t *u) {
    return u->valid && !p->x_blocked;
}

static void x_to_buf(const tiled_ctx_t *c, tsr_data_type_t dt,
                     const tiled_unit_t *u, float *buf) {
    const tiled_plan_t *p = c->p;
    const tsr_dim_t step = p->x_stride[p->row], t = p->tile_size;
    const tsr_dim_t xts = p->x_tile_stride;
    const char *x = c->x_data;
    if (x_by_columns(p, u)) {
        for (tsr_dim_t i = 0; i < t; i++) {
            if (u->valid[i])
                tsr_cvt_to_f32_strided(
                        dt, x + (size_t)(u->x + i * xts) * c->x_esize, step,
                        buf + i, t, u->rows);
            else
                for (tsr_dim_t w = 0; w < u->rows; w++)
                    buf[w * t + i] = 0.f;
        }
    } else if (xts == 1) {
        tsr_cvt_to_f32_2d(dt, x + (size_t)u->x * c->x_esize, step, buf, t,
                          u->rows, t);
    } else {
        for (tsr_dim_t w = 0; w < u->rows; w++)
            tsr_cvt_to_f32_strided(dt,
                                   x + (size_t)(u->x + w * step) * c->x_esize,
                                   xts, buf + w * t, 1, t);
    }
}

/* Writes the buffer to X; a blocked X's padding gets zeros. */
static void buf_to_x(const tiled_ctx_t *c, const tiled_unit_t *u, float *buf) {
    const tiled_plan_t *p = c->p;
    const tsr_dim_t step = p->x_stride[p->row], t = p->tile_size;
    const tsr_dim_t xts = p->x_tile_stride;
    const tsr_round_mode_t mode = c->conf->round_mode;
    char *x = c->x_data;
    if (x_by_columns(p, u)) {
        for (tsr_dim_t i = 0; i < t; i++)
            if (u->valid[i])
                tsr_cvt_from_f32_strided(c->x_dt, buf + i, t,
                                         x + (size_t)(u->x + i * xts) *
                                                         c->x_esize,
                                         step, u->rows, mode);
        return;
    }
    if (u->valid)
        for (tsr_dim_t i = 0; i < t; i++)
            if (!u->valid[i])
                for (tsr_dim_t w = 0; w < u->rows; w++)
                    buf[w * t + i] = 0.f;
    if (xts == 1)
        tsr_cvt_from_f32_2d(c->x_dt, buf, t, x + (size_t)u->x * c->x_esize,
                            step, u->rows, t, mode);
    else
        for (tsr_dim_t w = 0; w < u->rows; w++)
            tsr_cvt_from_f32_strided(c->x_dt, buf + w * t, 1,
                                     x + (size_t)(u->x + w * step) * c->x_esize,
                                     xts, t, mode);
}

/* Copies `rows` elements of `esize` bytes through an offset table, row by
 * row: the short-row form of the bit-exact move. */
static void move_by_table(size_t esize, const char *from, tsr_dim_t from_step,
                          const tsr_dim_t *from_table, char *to,
                          tsr_dim_t to_step, tsr_dim_t to_tile_stride,
                          tsr_dim_t rows, tsr_dim_t t) {
    for (tsr_dim_t w = 0; w < rows; w++)
        for (tsr_dim_t i = 0; i < t; i++) {
            const tsr_dim_t f = w * from_step + from_table[i];
            const tsr_dim_t o = w * to_step + i * to_tile_stride;
            switch (esize) {
            case 4:
                ((uint32_t *)to)[o] = ((const uint32_t *)from)[f];
                break;
            case 2:
                ((uint16_t *)to)[o] = ((const uint16_t *)from)[f];
                break;
            default:
                ((uint8_t *)to)[o] = ((const uint8_t *)from)[f];
                break;
            }
        }
}

/* Same type, no attributes: bits go straight from one side to the other;
 * a blocked destination X gets zeros in its padding. */
static void move_unit(const tiled_ctx_t *c, const tiled_unit_t *u) {
    const tiled_plan_t *p = c->p;
    const size_t es = c->x_esize;
    const tsr_dim_t a_step = p->a_stride[p->row], x_step = p->x_stride[p->row];
    const tsr_dim_t t = p->tile_size, xts = p->x_tile_stride;
    char *x = c->x_data + (size_t)u->x * es, *a = c->a_data + (size_t)u->a * es;
    if (a_by_table(p, u) && p->x_is_dst) {
        move_by_table(es, a, a_step, p->a_tile_off, x, x_step, xts, u->rows, t);
        return;
    }
    if (a_by_transpose(p, u, es) && xts == 1) {
        if (p->x_is_dst)
            tiled_gather_transpose4_avx2(a, p->a_tile_off, x, x_step, t,
                                         u->rows);
        else
            tiled_scatter_transpose4_avx2(x, x_step, a, p->a_tile_off, t,
                                          u->rows);
        return;
    }
    if (p->a_tile_contiguous && !u->valid && xts == 1) {
        if (p->x_is_dst)
            reorder_copy_2d(es, a, a_step, x, x_step, u->rows, t);
        else
            reorder_copy_2d(es, x, x_step, a, a_step, u->rows, t);
        return;
    }
    if (p->a_tile_contiguous && !u->valid) {
        for (tsr_dim_t w = 0; w < u->rows; w++) {
            char *xp = x + (size_t)(w * x_step) * es;
            char *ap = a + (size_t)(w * a_step) * es;
            if (p->x_is_dst)
                reorder_copy_strided(es, ap, 1, xp, xts, t);
            else
                reorder_copy_strided(es, xp, xts, ap, 1, t);
        }
        return;
    }
    for (tsr_dim_t i = 0; i < t; i++) {
        char *xp = x + (size_t)(i * xts) * es;
        char *ap = a + (size_t)p->a_tile_off[i] * es;
        if (u->valid && !u->valid[i]) {
            if (p->x_is_dst && p->x_blocked)
                reorder_zero_strided(es, xp, x_step, u->rows);
        } else if (p->x_is_dst) {
            reorder_copy_strided(es, ap, a_step, xp, x_step, u->rows);
        } else {
            reorder_copy_strided(es, xp, x_step, ap, a_step, u->rows);
        }
    }
}

/* The per-element factors at value indices idx[kind]. */
static void lookup_q(const reorder_values_t *values, const tsr_dim_t *idx,
                     float *alpha, float *src_zp, float *dst_zp) {
    *alpha =
            reorder_q_value(values, REORDER_SRC_SCALE, idx[REORDER_SRC_SCALE]) /
            reorder_q_value(values, REORDER_DST_SCALE, idx[REORDER_DST_SCALE]);
    *src_zp = reorder_q_value(values, REORDER_SRC_ZP, idx[REORDER_SRC_ZP]);
    *dst_zp = reorder_q_value(values, REORDER_DST_ZP, idx[REORDER_DST_ZP]);
}

/* The formula over the staging buffer when scales or zero points vary
 * over the dims: value indices come from the tables. When none varies
 * along the row, the factors are looked up once per tile element. Tile
 * elements outside the dims have no values; they keep neutral factors
 * (their results are dropped). */
static void apply_indexed(const tiled_ctx_t *c, const tiled_unit_t *u,
                          float *buf, const float *old) {
    const tiled_plan_t *p = c->p;
    const tsr_dim_t t = p->tile_size;
    tsr_dim_t base[REORDER_NQ], row_step[REORDER_NQ], idx[REORDER_NQ];
    int varies_along_row = 0;
    for (int k = 0; k < REORDER_NQ; k++) {
        base[k] = 0;
        for (int d = 0; d < p->ndims; d++)
            base[k] += u->base_pos[d] * p->q_step[k][d];
        row_step[k] = p->mult[p->row] * p->q_step[k][p->dim[p->row]];
        varies_along_row |= row_step[k] != 0;
    }
    const int per_column = !varies_along_row && t <= TILED_MAX_COLUMNS;
    float alpha[TILED_MAX_COLUMNS], src_zp[TILED_MAX_COLUMNS],
            dst_zp[TILED_MAX_COLUMNS];
    for (tsr_dim_t i = 0; per_column && i < t; i++) {
        alpha[i] = 1.f;
        src_zp[i] = dst_zp[i] = 0.f;
        if (u->valid && !u->valid[i])
            continue;
        for (int k = 0; k < REORDER_NQ; k++)
            idx[k] = base[k] + p->tile_qidx[k][i];
        lookup_q(c->values, idx, &alpha[i], &src_zp[i], &dst_zp[i]);
    }
    if (per_column) {
        for (tsr_dim_t w = 0; w < u->rows; w++)
            reorder_apply_columns(c->conf, buf + w * t,
                                  old ? old + w * t : NULL, t, alpha, src_zp,
                                  dst_zp);
        return;
    }
    for (tsr_dim_t w = 0; w < u->rows; w++)
        for (tsr_dim_t i = 0; i < t; i++) {
            if (u->valid && !u->valid[i])
                continue;
            const tsr_dim_t e = w * t + i;
            float a, sz, dz;
            for (int k = 0; k < REORDER_NQ; k++)
                idx[k] = base[k] + w * row_step[k] + p->tile_qidx[k][i];
            lookup_q(c->values, idx, &a, &sz, &dz);
            buf[e] = reorder_apply(c->conf, buf[e], a, sz, dz,
                                   old ? old[e] : 0.f);
        }
}

static void convert_unit(const tiled_ctx_t *c, const tiled_unit_t *u) {
    float buf[TILED_BUF], old[TILED_BUF];
    const reorder_conf_t *conf = c->conf;
    const tsr_dim_t n = u->rows * c->p->tile_size;
    if (c->p->x_is_dst) {
        a_to_buf(c, c->a_dt, u, buf);
        if (conf->has_sum)
            x_to_buf(c, conf->sum_dt, u, old);
    } else {
        x_to_buf(c, c->x_dt, u, buf);
        if (conf->has_sum)
            a_to_buf(c, conf->sum_dt, u, old);
    }
    if (reorder_conf_is_uniform(conf))
        reorder_apply_uniform(conf, c->values, buf, old, n);
    else
        apply_indexed(c, u, buf, conf->has_sum ? old : NULL);
    if (c->p->x_is_dst)
        buf_to_x(c, u, buf);
    else
        buf_to_a(c, u, buf);
}

/* Element by element, for work items whose row runs past the dims. */
static void tail_unit(const tiled_ctx_t *c, const tiled_unit_t *u) {
    const tiled_plan_t *p = c->p;
    const int row_dim = p->dim[p->row];
    for (tsr_dim_t w = 0; w < u->rows; w++)
        for (tsr_dim_t i = 0; i < p->tile_size; i++) {
            tsr_dim_t pos[TSR_MAX_NDIMS];
            int inside = 1;
            for (int d = 0; d < p->ndims; d++) {
                pos[d] = u->base_pos[d] + p->tile_pos[i * p->ndims + d] +
                         (d == row_dim ? w * p->mult[p->row] : 0);
                inside &= pos[d] < p->dims[d];
            }
            const tsr_dim_t xo =
                    u->x + w * p->x_stride[p->row] + i * p->x_tile_stride;
            const tsr_dim_t ao =
                    u->a + w * p->a_stride[p->row] + p->a_tile_off[i];
            if (inside && p->x_is_dst)
                reorder_element(c->conf, c->values, p->ndims, p->dims, pos,
                                c->a_data, ao, c->x_data, xo);
            else if (inside)
                reorder_element(c->conf, c->values, p->ndims, p->dims, pos,
                                c->x_data, xo, c->a_data, ao);
            else if (p->x_is_dst && p->x_blocked) /* X's zero padding */
                reorder_zero_strided(c->x_esize,
                                     c->x_data + (size_t)xo * c->x_esize, 1, 1);
        }
}

/* Where a work item stands against the dims: its row inside along the
 * row dim, and which tile elements are inside along the others. */
typedef enum { UNIT_INSIDE, UNIT_PARTIAL_TILE, UNIT_ROW_OUTSIDE } unit_fit_t;

static unit_fit_t unit_fit(const tiled_plan_t *p, const tiled_unit_t *u) {
    const int row_dim = p->dim[p->row];
    unit_fit_t fit = UNIT_INSIDE;
    for (int d = 0; d < p->ndims; d++) {
        const tsr_dim_t last =
                u->base_pos[d] + p->tile_max[d] +
                (d == row_dim ? (u->rows - 1) * p->mult[p->row] : 0);
        if (last < p->dims[d])
            continue;
        if (d == row_dim)
            return UNIT_ROW_OUTSIDE;
        fit = UNIT_PARTIAL_TILE;
    }
    return fit;
}

static void tile_validity(const tiled_plan_t *p, const tiled_unit_t *u,
                          unsigned char *valid) {
    const int row_dim = p->dim[p->row];
    for (tsr_dim_t i = 0; i < p->tile_size; i++) {
        int inside = 1;
        for (int d = 0; d < p->ndims; d++)
            inside &=
                    d == row_dim ||
                    u->base_pos[d] + p->tile_pos[i * p->ndims + d] < p->dims[d];
        valid[i] = (unsigned char)inside;
    }
}

static tsr_status_t tiled_execute(const struct tsr_primitive_desc *pd,
                                  const tsr_exec_ctx_t *ctx) {
    const tiled_plan_t *p = pd->impl_data;
    reorder_conf_t conf;
    reorder_values_t values;
    void *src, *dst;
    tsr_status_t st = reorder_exec_setup(&conf, &values, &src, &dst, pd, ctx);
    if (st != tsr_success)
        return st;
    if (!p)
        return tsr_invalid_arguments;

    tiled_ctx_t c = {.p = p, .conf = &conf, .values = &values};
    c.x_data = p->x_is_dst ? dst : src;
    c.a_data = p->x_is_dst ? src : dst;
    c.x_dt = p->x_is_dst ? conf.dst_dt : conf.src_dt;
    c.a_dt = p->x_is_dst ? conf.src_dt : conf.dst_dt;
    c.x_esize = tsr_data_type_size(c.x_dt);
    c.a_esize = tsr_data_type_size(c.a_dt);

    const tsr_dim_t chunks = tsr_div_up(p->extent[p->row], p->row_chunk);
    tsr_dim_t points = 1;
    for (int j = 0; j < p->nouter; j++)
        if (j != p->row)
            points *= p->extent[j];
    const tsr_dim_t work = points * p->extent[p->row] * p->tile_size;
#pragma omp parallel for schedule(static) if (work >= REORDER_PARALLEL_MIN)
    for (tsr_dim_t unit = 0; unit < points * chunks; unit++) {
        tiled_unit_t u = {.x = p->x_offset0};
        for (int d = 0; d < p->ndims; d++)
            u.base_pos[d] = 0;
        tsr_dim_t rest = unit / chunks;
        for (int j = p->nouter - 1; j >= 0; j--) {
            const tsr_dim_t idx = j == p->row ? (unit % chunks) * p->row_chunk
                                              : rest % p->extent[j];
            if (j != p->row)
                rest /= p->extent[j];
            u.x += idx * p->x_stride[j];
            u.base_pos[p->dim[j]] += idx * p->mult[j];
        }
        u.a = md_off_v(&p->a_md, u.base_pos);
        const tsr_dim_t first_row = (unit % chunks) * p->row_chunk;
        u.rows = TSR_MIN(p->row_chunk, p->extent[p->row] - first_row);
        unsigned char valid[TILED_BUF];
        switch (unit_fit(p, &u)) {
        case UNIT_ROW_OUTSIDE:
            tail_unit(&c, &u);
            continue;
        case UNIT_PARTIAL_TILE:
            tile_validity(p, &u, valid);
            u.valid = valid;
            break;
        case UNIT_INSIDE:
            break;
        }
        if (conf.move_only)
            move_unit(&c, &u);
        else
            convert_unit(&c, &u);
    }
    /* A destination A's padding lies outside every tile. */
    if (!p->x_is_dst)
        md_zero_pad(&p->a_md, c.a_data);
    return tsr_success;
}

const tsr_impl_t tsr_simple_reorder_tiled_impl = {
        .name = "simple:tiled",
        .isa = tsr_cpu_isa_generic,
        .init = tiled_init,
        .execute = tiled_execute,
        .fini = tiled_fini,
};
