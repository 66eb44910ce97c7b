/* The reduction the reference convolution, inner product and matmul share,
 * and the whole execution of the latter two, which are the same "one dot
 * product per dst point, then the shared epilogue" with different index
 * maps.
 *
 * For one dst point: acc = sum over k of (src[..] - src_zp) * (wei[..] -
 * wei_zp), in s32 for u8/s8 sources (wrapping like 32-bit adds), in f32 in
 * k order for floating ones; zero points are looked up by their mask over
 * the argument's logical dims. Then the epilogue (epilogue_f32.h) with the
 * last dst dim as the channel. Work is split over dst points only, so
 * results do not depend on the thread count. */
#ifndef TSR_CPU_COMMON_REF_DOT_H
#define TSR_CPU_COMMON_REF_DOT_H

#include <stdint.h>

#include "common/attr_mask.h"
#include "common/data_type.h"
#include "common/primitive.h"
#include "cpu/common/epilogue_f32.h"

/* Loads the source or weights element at `off` (logical position `pos`)
 * with its zero point subtracted; exact integers for int8 data. */
static inline float tsr_ref_load_shifted(const tsr_memory_desc_t *md,
                                         const void *data, tsr_dim_t off,
                                         const int32_t *zp, int zp_mask,
                                         const tsr_dim_t *pos) {
    const float v = tsr_load_f32_inline(md->data_type, data, off);
    if (!zp)
        return v;
    return v - (float)zp[tsr_mask_index(zp_mask, md->ndims, md->dims, pos)];
}

/* Integer products are exact in f32 (|x| < 2^24 after a zero point of a
 * sane size), so one loop serves both accumulators. */
typedef struct {
    int int8;
    int64_t s;
    float f;
} tsr_ref_acc_t;

static inline void tsr_ref_acc_add(tsr_ref_acc_t *acc, float s, float w) {
    if (acc->int8)
        acc->s += (int64_t)s * (int64_t)w;
    else
        acc->f += s * w;
}

/* The low 32 bits are what a 32-bit accumulator would hold. */
static inline float tsr_ref_acc_value(const tsr_ref_acc_t *acc) {
    return acc->int8 ? (float)(int32_t)(uint32_t)acc->s : acc->f;
}

/* Writes the src and weights positions of reduction index k for dst point
 * dpos. */
typedef void (*tsr_ref_dot_positions_fn)(const tsr_memory_desc_t *src_md,
                                         const tsr_memory_desc_t *wei_md,
                                         const tsr_dim_t *dpos, tsr_dim_t k,
                                         tsr_dim_t *spos, tsr_dim_t *wpos);

/* Acceptance and layouts: the data type combinations of op_data_types_ok,
 * "any" resolved to plain row-major, an epilogue `epilogue_init` can set
 * up. */
tsr_status_t tsr_ref_dot_init(struct tsr_primitive_desc *pd, int with_bias,
                              tsr_epilogue_init_fn epilogue_init);

/* Runs every dst point: K products through `positions`, then the epilogue
 * `epilogue_init` sets up. */
tsr_status_t tsr_ref_dot_execute(const struct tsr_primitive_desc *pd,
                                 const tsr_exec_ctx_t *ctx,
                                 tsr_epilogue_init_fn epilogue_init,
                                 tsr_dim_t K,
                                 tsr_ref_dot_positions_fn positions);

#endif
