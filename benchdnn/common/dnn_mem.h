/* Memories the harness hands to the library, and their conversion from and
 * to dense f32 buffers in logical (row-major) order. The conversion uses
 * the public offset query and the harness' own rounding, not the library's
 * reorder, so a reorder bug cannot hide a kernel bug. Only the extra data
 * of int8 weights (their compensation) comes from a library reorder, as
 * for users; a wrong one shows in the primitive's checked results. */
#ifndef BENCHDNN_COMMON_DNN_MEM_H
#define BENCHDNN_COMMON_DNN_MEM_H

#include <stdint.h>

#include "tessera.h"

typedef struct {
    tsr_memory_desc_t md;
    tsr_memory_t mem;
    void *data;
} dnn_mem_t;

tsr_engine_t bench_engine(void);
tsr_stream_t bench_stream(void);
/* Destroys the engine and stream (end of main). */
void bench_engine_release(void);

/* Allocates a library-owned, zero-filled memory for `md`. */
tsr_status_t dnn_mem_create(dnn_mem_t *m, const tsr_memory_desc_t *md);
void dnn_mem_free(dnn_mem_t *m);

/* Writes f32 `src` (dense logical order, nelems) into m, converting to its
 * data type with round-to-nearest-even and saturation; padding stays 0.
 * Extra data of m's descriptor (compensation of int8 weights) is then
 * written by a library reorder, as users do. Returns its failure. */
tsr_status_t dnn_mem_from_f32(dnn_mem_t *m, const float *src);
/* Reads m into dense logical f32. */
void dnn_mem_to_f32(const dnn_mem_t *m, float *dst);

/* Harness-side conversion of one f32 value to what `dt` can hold (round
 * nearest even or down, saturate), returned as f32. */
float bench_round_to_dt(tsr_data_type_t dt, float v, tsr_round_mode_t mode);

/* The harness' own 16-bit float conversions (round to nearest even;
 * overflow gives infinity, NaN stays NaN). */
uint16_t bench_f32_to_bf16(float f);
float bench_bf16_to_f32(uint16_t h);
uint16_t bench_f32_to_f16(float f);
float bench_f16_to_f32(uint16_t h);

#endif
