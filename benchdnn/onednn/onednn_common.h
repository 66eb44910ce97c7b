/* What every driver's oneDNN path shares: the engine and stream, data
 * types, format tags, attributes, memories and their conversion from and
 * to the harness' dense f32 buffers, and implementation selection.
 * Built only with oneDNN (BENCHDNN_WITH_ONEDNN). Functions that can fail
 * for a reason the user should see return -1 and write it to `reason`
 * (a problem's res_t reason, ONEDNN_REASON_LEN bytes). */
#ifndef BENCHDNN_ONEDNN_ONEDNN_COMMON_H
#define BENCHDNN_ONEDNN_ONEDNN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

#include "common/attr.h"
#include "common/benchdnn.h"
#include "tessera.h"

#define ONEDNN_REASON_LEN sizeof(((res_t *)0)->reason)

/* Created on first use; onednn_release() runs at exit. */
dnnl_engine_t onednn_engine(void);
dnnl_stream_t onednn_stream(void);
void onednn_release(void);

dnnl_data_type_t onednn_dt(tsr_data_type_t dt);

/* oneDNN 2.6's eltwise algorithm of a Tessera one with these (effective)
 * parameters, dnnl_alg_kind_undef when it has none (hardswish with other
 * than 1/6, 1/2; soft_relu with alpha other than 0 or 1; hardsigmoid). */
dnnl_alg_kind_t onednn_eltwise_alg(tsr_alg_kind_t alg, float alpha, float beta);
/* Binary algorithms have the same order in both libraries. */
dnnl_alg_kind_t onednn_binary_alg(tsr_alg_kind_t alg);

/* A memory descriptor from logical dims, a data type and one of Tessera's
 * tag strings (meta-tags already resolved for the rank): "any" gives
 * dnnl_format_tag_any, any other tag is matched through its letter form
 * ("nhwc" -> "acdb") to oneDNN's tag; a plain layout oneDNN has no tag
 * for goes by strides. -1 with a reason for a blocked layout oneDNN lacks
 * or a tag of another rank. */
int onednn_md_init(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, char *reason);

/* Where a primitive's attributes apply: logical dims of src, weights and
 * dst (indexed by bench_qarg_t), the weights mask meaning "per output
 * channel" (1, or 3 with groups), the dst mask of the same channels
 * (1 << 1 for conv), whether data tensors have their channels last
 * (matmul; attr_policy_mask) and whether the primitive has a bias. */
typedef struct {
    int ndims[QARG_COUNT];
    int64_t dims[QARG_COUNT][TSR_MAX_NDIMS];
    int wei_oc_mask, dst_oc_mask, data_oc_last;
    int with_bias;
} onednn_attr_shape_t;

/* oneDNN 2.6 attributes for `attr`: legacy output scales directly; v3.x
 * per-argument scales folded into output scales where the result is the
 * same (no bias, src scale common, weights/dst scale common or per output
 * channel, dst scale not behind post-ops); zero points; sum, eltwise and
 * binary post-ops; user scratchpad. -1 with a reason (UNIMPLEMENTED) for
 * what oneDNN 2.6 cannot express. */
int onednn_attr_create(const bench_attr_t *attr,
                       const onednn_attr_shape_t *shape,
                       dnnl_primitive_attr_t *out, char *reason);

/* Number of logical elements of `md`, INT64_MAX when that overflows. */
int64_t onednn_md_nelems(const dnnl_memory_desc_t *md);

/* A memory of `md`, allocated by oneDNN (padding zeroed). */
int onednn_mem_create(dnnl_memory_t *mem, const dnnl_memory_desc_t *md,
                      char *reason);
/* Writes dense logical f32 `values` into `mem` (through a oneDNN reorder
 * into a plain memory of mem's type, which rounds to nearest and
 * saturates, then into mem's layout) and leaves in `values` what mem now
 * holds. A weights layout that scales its values (oneDNN's s8
 * compensation with scale_adjust) first gets values rounded to what the
 * scaling keeps exact (even integers for 0.5). */
int onednn_mem_from_f32(dnnl_memory_t mem, float *values, char *reason);
/* Reads `mem` (not a weights layout with compensation) into dense f32. */
int onednn_mem_to_f32(dnnl_memory_t mem, float *dst, char *reason);
/* The same as onednn_mem_to_f32, reading the bits as data type `dt`
 * (a type of the same size: the sum post-op's reinterpretation). */
int onednn_mem_to_f32_as(dnnl_memory_t mem, dnnl_data_type_t dt, float *dst,
                         char *reason);

/* The primitive descriptor of the first implementation --impl/--skip-impl
 * allow, matched on "onednn:" + oneDNN's name, which goes to `impl_name`
 * (len bytes); `hint`: the forward pd of a backward one, or NULL.
 * Returns the res_t state: STATE_PASSED (found), STATE_SKIPPED (filtered
 * out), STATE_UNIMPLEMENTED or STATE_INVALID_ARGUMENTS, with a reason. */
res_state_t onednn_pd_create(dnnl_primitive_desc_t *pd, const_dnnl_op_desc_t op,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint, char *impl_name,
                             size_t len, char *reason);
/* The same filter for a pd created directly (sum, concat, reorder: one
 * implementation each): STATE_PASSED, or STATE_SKIPPED with a reason. */
res_state_t onednn_pd_adopt(dnnl_primitive_desc_t pd, char *impl_name,
                            size_t len, char *reason);

/* Bytes of a descriptor a primitive descriptor reports (0 when absent). */
size_t onednn_pd_md_size(const_dnnl_primitive_desc_t pd, dnnl_query_t what,
                         int index);

/* oneDNN status -> the state a failed creation step gives. */
res_state_t onednn_status_state(dnnl_status_t st);

#endif
