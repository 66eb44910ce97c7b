/* Library memories and their conversion from/to dense logical f32, with
 * the harness' own element conversions (round to nearest even, saturate)
 * and the library's public offset query for the layout. */
#include "dnn_mem.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static tsr_engine_t engine;
static tsr_stream_t stream;

tsr_engine_t bench_engine(void) {
    if (!engine && tsr_engine_create(&engine, tsr_cpu, 0) != tsr_success)
        engine = NULL;
    return engine;
}

tsr_stream_t bench_stream(void) {
    if (!stream && bench_engine() &&
        tsr_stream_create(&stream, engine) != tsr_success)
        stream = NULL;
    return stream;
}

void bench_engine_release(void) {
    if (stream)
        tsr_stream_destroy(stream);
    if (engine)
        tsr_engine_destroy(engine);
    stream = NULL;
    engine = NULL;
}

tsr_status_t dnn_mem_create(dnn_mem_t *m, const tsr_memory_desc_t *md) {
    dnn_mem_t result = {.md = *md};
    if (!bench_engine())
        return tsr_runtime_error;
    tsr_status_t st =
            tsr_memory_create(&result.mem, md, engine, TSR_MEMORY_ALLOCATE);
    if (st != tsr_success)
        return st;
    st = tsr_memory_get_data_handle(result.mem, &result.data);
    if (st != tsr_success) {
        tsr_memory_destroy(result.mem);
        return st;
    }
    *m = result;
    return tsr_success;
}

void dnn_mem_free(dnn_mem_t *m) {
    if (m->mem)
        tsr_memory_destroy(m->mem);
    memset(m, 0, sizeof(*m));
}

/* ------------------------------------------------------------------------ */
/* Element conversions                                                       */

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

uint16_t bench_f32_to_bf16(float f) {
    const uint32_t u = f32_bits(f);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40); /* stays a quiet NaN */
    const uint32_t rounding = 0x7fff + ((u >> 16) & 1);
    return (uint16_t)((u + rounding) >> 16);
}

float bench_bf16_to_f32(uint16_t h) {
    return bits_f32((uint32_t)h << 16);
}

/* Rounds away the low `shift` bits of m to nearest, ties to even. */
static uint32_t round_shift(uint32_t m, int shift) {
    const uint32_t kept = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1);
    const uint32_t half = 1u << (shift - 1);
    return kept + (rest > half || (rest == half && (kept & 1)));
}

uint16_t bench_f32_to_f16(float f) {
    const uint32_t u = f32_bits(f);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    const int exp = (int)((u >> 23) & 0xff);
    const uint32_t mant = u & 0x7fffff;
    if (exp == 0xff) /* inf, or NaN kept quiet */
        return sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0);
    const int e = exp - 127 + 15;
    if (e >= 31)
        return sign | 0x7c00; /* overflow: infinity, as IEEE rounding does */
    if (e <= 0) {             /* f16 subnormal (or zero) */
        if (e < -10)
            return sign;
        return sign | (uint16_t)round_shift(mant | 0x800000, 14 - e);
    }
    /* A carry out of the mantissa correctly bumps the exponent. */
    return sign | (uint16_t)round_shift(((uint32_t)e << 23) | mant, 13);
}

float bench_f16_to_f32(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    const int exp = (h >> 10) & 0x1f;
    const uint32_t mant = h & 0x3ff;
    if (exp == 0x1f)
        return bits_f32(sign | 0x7f800000 | (mant << 13));
    if (exp == 0) { /* subnormal: mant * 2^-24 */
        const float v = ldexpf((float)mant, -24);
        return sign ? -v : v;
    }
    return bits_f32(sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13));
}

/* Integer limits as floats: 2^31 - 1 is not a float, so s32 saturates to
 * the largest float below 2^31. */
static void int_range(tsr_data_type_t dt, float *lo, float *hi) {
    switch (dt) {
    case tsr_s8:
        *lo = -128.f, *hi = 127.f;
        break;
    case tsr_u8:
        *lo = 0.f, *hi = 255.f;
        break;
    default:
        *lo = -2147483648.f, *hi = 2147483520.f;
        break;
    }
}

float bench_round_to_dt(tsr_data_type_t dt, float v, tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_bf16:
        return bench_bf16_to_f32(bench_f32_to_bf16(v));
    case tsr_f16:
        return bench_f16_to_f32(bench_f32_to_f16(v));
    case tsr_s32:
    case tsr_s8:
    case tsr_u8: {
        float lo, hi;
        if (isnan(v))
            return 0.f;
        int_range(dt, &lo, &hi);
        /* rintf: the default rounding mode, to nearest even. */
        const float r = mode == tsr_round_down ? floorf(v) : rintf(v);
        return r < lo ? lo : r > hi ? hi : r;
    }
    default:
        return v;
    }
}

static void store_element(void *data, tsr_data_type_t dt, int64_t off,
                          float v) {
    switch (dt) {
    case tsr_f32:
        ((float *)data)[off] = v;
        break;
    case tsr_bf16:
        ((uint16_t *)data)[off] = bench_f32_to_bf16(v);
        break;
    case tsr_f16:
        ((uint16_t *)data)[off] = bench_f32_to_f16(v);
        break;
    case tsr_s32:
        ((int32_t *)data)[off] =
                (int32_t)bench_round_to_dt(dt, v, tsr_round_nearest);
        break;
    case tsr_s8:
        ((int8_t *)data)[off] =
                (int8_t)bench_round_to_dt(dt, v, tsr_round_nearest);
        break;
    case tsr_u8:
        ((uint8_t *)data)[off] =
                (uint8_t)bench_round_to_dt(dt, v, tsr_round_nearest);
        break;
    default:
        break;
    }
}

static float load_element(const void *data, tsr_data_type_t dt, int64_t off) {
    switch (dt) {
    case tsr_f32:
        return ((const float *)data)[off];
    case tsr_bf16:
        return bench_bf16_to_f32(((const uint16_t *)data)[off]);
    case tsr_f16:
        return bench_f16_to_f32(((const uint16_t *)data)[off]);
    case tsr_s32:
        return (float)((const int32_t *)data)[off];
    case tsr_s8:
        return (float)((const int8_t *)data)[off];
    case tsr_u8:
        return (float)((const uint8_t *)data)[off];
    default:
        return 0.f;
    }
}

/* Logical coordinates of row-major index i. */
static void index_to_pos(const tsr_memory_desc_t *md, int64_t i,
                         tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = i % md->dims[d];
        i /= md->dims[d];
    }
}

static void next_pos(const tsr_memory_desc_t *md, tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        if (++pos[d] < md->dims[d])
            return;
        pos[d] = 0;
    }
}

/* Chunks of consecutive logical points, one offset walk per chunk. */
#define CONVERT_CHUNK 4096

/* Walks every logical point of m in order, in chunks of consecutive points
 * (one offset walk per chunk), copying between m and the dense f32 buffer
 * in the direction `to_f32` says. */
static void convert_dense(const dnn_mem_t *m, float *f32, int to_f32) {
    const tsr_memory_desc_t *md = &m->md;
    const int64_t n = tsr_memory_desc_nelems(md);
    const int64_t nchunks = (n + CONVERT_CHUNK - 1) / CONVERT_CHUNK;
    /* Along a last dim that no inner block splits, offsets step by its
     * stride: one offset walk per run of it, not per point (the walk was
     * a fifth of the int8 CI batches' time). */
    const int last = md->ndims - 1;
    int last_affine = 1;
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        if (md->blocking.inner_idxs[k] == last)
            last_affine = 0;
    const tsr_dim_t last_stride = md->blocking.strides[last];
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (int64_t c = 0; c < nchunks; c++) {
        tsr_dims_t pos;
        const int64_t end =
                (c + 1) * CONVERT_CHUNK < n ? (c + 1) * CONVERT_CHUNK : n;
        index_to_pos(md, c * CONVERT_CHUNK, pos);
        for (int64_t i = c * CONVERT_CHUNK; i < end;) {
            const int64_t run_left = md->dims[last] - pos[last];
            const int64_t run =
                    last_affine ? (end - i < run_left ? end - i : run_left) : 1;
            const tsr_dim_t off0 = tsr_memory_desc_offset(md, pos);
            for (int64_t j = 0; j < run; j++) {
                const tsr_dim_t off = off0 + j * last_stride;
                if (to_f32)
                    f32[i + j] = load_element(m->data, md->data_type, off);
                else
                    store_element(m->data, md->data_type, off, f32[i + j]);
            }
            pos[last] += run - 1;
            next_pos(md, pos);
            i += run;
        }
    }
}

/* Writes the extra data of m (int8 weights with compensation) the way a
 * user gets it: its values, already in m, go through a library reorder
 * from a memory without the extra into m, which computes the extra. */
static tsr_status_t write_extra(dnn_mem_t *m) {
    dnn_mem_t plain;
    tsr_memory_desc_t plain_md = m->md;
    memset(&plain_md.extra, 0, sizeof(plain_md.extra));
    tsr_status_t st = dnn_mem_create(&plain, &plain_md);
    if (st != tsr_success)
        return st;
    memcpy(plain.data, m->data, tsr_memory_desc_get_size(&plain_md));
    tsr_primitive_desc_t pd = NULL;
    tsr_primitive_t prim = NULL;
    st = tsr_reorder_primitive_desc_create(&pd, &plain_md, bench_engine(),
                                           &m->md, bench_engine(), NULL);
    if (st == tsr_success)
        st = tsr_primitive_create(&prim, pd);
    if (st == tsr_success) {
        const tsr_exec_arg_t args[] = {{TSR_ARG_FROM, plain.mem},
                                       {TSR_ARG_TO, m->mem}};
        st = tsr_primitive_execute(prim, bench_stream(), 2, args);
    }
    if (st == tsr_success)
        st = tsr_stream_wait(bench_stream());
    if (prim)
        tsr_primitive_destroy(prim);
    if (pd)
        tsr_primitive_desc_destroy(pd);
    dnn_mem_free(&plain);
    return st;
}

tsr_status_t dnn_mem_from_f32(dnn_mem_t *m, const float *src) {
    /* Only read from src in this direction. */
    convert_dense(m, (float *)src, 0);
    return m->md.extra.flags ? write_extra(m) : tsr_success;
}

void dnn_mem_to_f32(const dnn_mem_t *m, float *dst) {
    convert_dense(m, dst, 1);
}
