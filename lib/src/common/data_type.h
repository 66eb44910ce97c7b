/* Element conversions with the library's rounding and saturation rules. */
#ifndef TSR_COMMON_DATA_TYPE_H
#define TSR_COMMON_DATA_TYPE_H

#include <stdint.h>

#include "tessera.h"

/* bf16 and f16 as raw bits. f32 -> bf16/f16 rounds to nearest even;
 * NaN stays NaN, overflow of f16 gives infinity. */
uint16_t tsr_f32_to_bf16(float f);
float tsr_bf16_to_f32(uint16_t b);
uint16_t tsr_f32_to_f16(float f);
float tsr_f16_to_f32(uint16_t h);

/* Reads element `idx` of a buffer of type `dt` as f32. */
float tsr_load_f32(tsr_data_type_t dt, const void *base, int64_t idx);

/* Rounds `v` per `mode` (integer destinations only), saturates to the
 * range of `dt` (NaN becomes 0 for integer types) and stores it at
 * element `idx`. Floating destinations take the value as is (f32) or
 * rounded to nearest even (bf16, f16). */
void tsr_store_f32(tsr_data_type_t dt, void *base, int64_t idx, float v,
        tsr_round_mode_t mode);

/* The f32 value an integer destination of type dt would hold:
 * round + saturate, no store. For floating types returns v unchanged
 * (f32) or as rounded through bf16/f16. */
float tsr_saturate_round(tsr_data_type_t dt, float v, tsr_round_mode_t mode);

/* Lowest and highest values of an integer type as f32 (for s32 the
 * largest floats that convert without overflow). */
float tsr_dt_min_f32(tsr_data_type_t dt);
float tsr_dt_max_f32(tsr_data_type_t dt);

#endif
