/* Helpers shared by the sum, concat and shuffle tests: tensors in any
 * layout filled with values every data type holds exactly, read back by
 * logical point, their zero padding checked, and each implementation that
 * accepts a problem run in turn. */
#ifndef TESTS_TENSOR_TEST_UTIL_H
#define TESTS_TENSOR_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

static inline void tensor_test_begin(void) {
    tsr_engine_create(&engine, tsr_cpu, 0);
    tsr_stream_create(&stream, engine);
}

static inline void tensor_test_end(void) {
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
}

static inline tsr_memory_desc_t md_of(int ndims, const tsr_dim_t *dims,
                                      tsr_data_type_t dt, const char *tag) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    CHECK(tsr_memory_desc_init_by_tag(&md, ndims, dims, dt, tag) ==
          tsr_success);
    return md;
}

static inline tsr_memory_t mem_of(const tsr_memory_desc_t *md) {
    tsr_memory_t mem = NULL;
    CHECK(tsr_memory_create(&mem, md, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_success);
    return mem;
}

static inline void *mem_data(tsr_memory_t mem) {
    void *data = NULL;
    tsr_memory_get_data_handle(mem, &data);
    return data;
}

static inline const tsr_memory_desc_t *mem_md(tsr_memory_t mem) {
    const tsr_memory_desc_t *md = NULL;
    tsr_memory_get_desc(mem, &md);
    return md;
}

/* A value of logical point l of input `seed` that dt holds exactly:
 * integers over most of the type's range, quarters for floating types. */
static inline float test_value(tsr_data_type_t dt, tsr_dim_t l, int seed) {
    const int64_t h = (l * 97 + seed * 1013 + 101) % 257;
    switch (dt) {
    case tsr_u8:
        return (float)(h - 1); /* -1: some negatives saturate elsewhere */
    case tsr_s8:
        return (float)(h % 256 - 128);
    case tsr_s32:
        return (float)((h - 128) * 1000 + seed);
    default:
        return (float)(h - 128) * 0.25f;
    }
}

static inline void pos_of(const tsr_memory_desc_t *md, tsr_dim_t l,
                          tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = l % md->dims[d];
        l /= md->dims[d];
    }
}

static inline float mem_get(tsr_memory_t mem, const tsr_dim_t *pos) {
    const tsr_memory_desc_t *md = mem_md(mem);
    return tsr_load_f32(md->data_type, mem_data(mem),
                        tsr_memory_desc_offset(md, pos));
}

static inline void mem_set(tsr_memory_t mem, const tsr_dim_t *pos, float v) {
    const tsr_memory_desc_t *md = mem_md(mem);
    tsr_store_f32(md->data_type, mem_data(mem), tsr_memory_desc_offset(md, pos),
                  v, tsr_round_nearest);
}

/* Fills every logical point with test_value (the padding stays zero). */
static inline void mem_fill(tsr_memory_t mem, int seed) {
    const tsr_memory_desc_t *md = mem_md(mem);
    const tsr_dim_t n = tsr_memory_desc_nelems(md);
    for (tsr_dim_t l = 0; l < n; l++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        pos_of(md, l, pos);
        mem_set(mem, pos, test_value(md->data_type, l, seed));
    }
}

/* Sets every byte of the buffer, padding included, to `byte`: what a
 * primitive must overwrite (points) or zero (padding). */
static inline void mem_poison(tsr_memory_t mem, int byte) {
    memset(mem_data(mem), byte, tsr_memory_desc_get_size(mem_md(mem)));
}

/* 1 when every padded point (inside padded_dims, outside dims) is zero. */
static inline int mem_padding_is_zero(tsr_memory_t mem) {
    const tsr_memory_desc_t *md = mem_md(mem);
    const size_t esize = tsr_data_type_size(md->data_type);
    const unsigned char *data = mem_data(mem);
    tsr_dim_t total = 1;
    for (int d = 0; d < md->ndims; d++)
        total *= md->padded_dims[d];
    for (tsr_dim_t l = 0; l < total; l++) {
        tsr_dim_t pos[TSR_MAX_NDIMS], rest = l;
        int padded = 0;
        for (int d = md->ndims - 1; d >= 0; d--) {
            pos[d] = rest % md->padded_dims[d];
            rest /= md->padded_dims[d];
            padded |= pos[d] >= md->dims[d];
        }
        if (!padded)
            continue;
        const unsigned char *e = data + (size_t)md_off_v(md, pos) * esize;
        for (size_t b = 0; b < esize; b++)
            if (e[b] != 0)
                return 0;
    }
    return 1;
}

/* What an f32 value becomes in dt: nearest even, saturated (the test's
 * own rule, written apart from the library's). */
static inline float round_to_dt(tsr_data_type_t dt, double v) {
    double lo, hi;
    switch (dt) {
    case tsr_s8:
        lo = -128, hi = 127;
        break;
    case tsr_u8:
        lo = 0, hi = 255;
        break;
    case tsr_s32:
        lo = -2147483648.0, hi = 2147483520.0;
        break;
    case tsr_bf16:
        return tsr_bf16_to_f32(tsr_f32_to_bf16((float)v));
    case tsr_f16:
        return tsr_f16_to_f32(tsr_f32_to_f16((float)v));
    default:
        return (float)v;
    }
    v = nearbyint(v);
    return (float)(v < lo ? lo : v > hi ? hi : v);
}

/* Runs `run` on every implementation of `pd` from the current one on
 * (tsr_primitive_desc_next_impl); returns how many there were. */
typedef void (*run_impl_fn)(tsr_primitive_desc_t pd, void *ctx);
static inline int for_each_impl(tsr_primitive_desc_t pd, run_impl_fn run,
                                void *ctx) {
    int impls = 0;
    do {
        run(pd, ctx);
        impls++;
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);
    return impls;
}

static const tsr_data_type_t all_data_types[] = {tsr_f32, tsr_bf16, tsr_f16,
                                                 tsr_s32, tsr_s8,   tsr_u8};
enum { N_DATA_TYPES = 6 };

#endif
