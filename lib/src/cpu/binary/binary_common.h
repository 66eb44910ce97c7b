/* What the binary implementations share: the attribute checks, the layout
 * choice for "any", the runtime values of one execution, and the one
 * per-point formula
 *   v = alg(scale0 * src0, scale1 * src1), then post-ops in order,
 *   then rounded (integer dst, per the round mode) and saturated to dst,
 * written once so that every path gives the reference's result. */
#ifndef TSR_CPU_BINARY_BINARY_COMMON_H
#define TSR_CPU_BINARY_BINARY_COMMON_H

#include "common/attr.h"
#include "common/primitive.h"

/* Scales of both sources (common only, mask 0), post-ops sum, eltwise and
 * binary; no zero points, dst scales or legacy output scales. */
int binary_attr_ok(const struct tsr_primitive_attr *attr);

/* Resolves "any": src0 to a dense plain layout, src1 to src0's (its outer
 * dim order when src1 broadcasts), dst to src0's layout with dst's data
 * type. */
tsr_status_t binary_resolve_any(struct tsr_primitive_desc *pd);

/* The layout of `like` (its outer order, and its inner blocks when
 * `keep_blocks`) for a descriptor of `dims` and `dt`, dense. */
tsr_status_t binary_md_like(tsr_memory_desc_t *md,
                            const tsr_memory_desc_t *like,
                            const tsr_dim_t *dims, tsr_data_type_t dt,
                            int keep_blocks);

/* Position in a broadcast operand (a source, PReLU weights) of the full
 * tensor's point `pos`: index 0 along the operand's dims of size 1. */
static inline void binary_bcast_pos(const tsr_memory_desc_t *md,
                                    const tsr_dim_t *pos, tsr_dim_t *bpos) {
    for (int d = 0; d < md->ndims; d++)
        bpos[d] = md->dims[d] == 1 ? 0 : pos[d];
}

/* "any" to the dense plain layout in logical order (abcd...); other
 * descriptors are left as they are. */
tsr_status_t binary_md_resolve_plain(tsr_memory_desc_t *md);

/* Runtime values of one execution. */
typedef struct {
    const void *src0, *src1;
    void *dst;
    float scale0, scale1; /* 1 when not set */
    const void *po_src1[TSR_MAX_POST_OPS];
} binary_rt_t;

void binary_rt_init(binary_rt_t *rt, const struct tsr_primitive_desc *pd,
                    const tsr_exec_ctx_t *ctx);

#endif
