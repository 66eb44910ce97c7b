/* Sum over sources and dst that share one dense layout: the buffers are
 * flat arrays, split into one contiguous chunk per thread. All f32 runs a
 * kernel straight over the buffers (this file's portable one, or the AVX2
 * and AVX-512 ones of their implementations, which also take bf16 and f16
 * in registers); other data types convert short pieces to f32 and back. */
#include <omp.h>

#include "common/data_type.h"
#include "common/utils.h"
#include "sum.h"

/* Elements converted at a time: the f32 staging stays in L1. */
enum { STAGE_LEN = 1024 };
/* Chunks start at multiples of this many elements (one cache line of
 * f32), so threads never share a line of dst. */
enum { CHUNK_ALIGN = 16 };
/* From this many dst bytes on, the kernels store past the caches. */
#define SUM_STREAM_MIN_BYTES ((tsr_dim_t)8 << 20)

/* Elements the portable kernel accumulates at a time: every source is
 * read for a block before dst is written, so dst may alias any source. */
enum { PORTABLE_BLOCK = 64 };

static void sum_f32_portable(float *dst, const float *const *srcs,
                             const float *scales, int n, tsr_dim_t len,
                             int stream) {
    (void)stream;
    for (tsr_dim_t start = 0; start < len; start += PORTABLE_BLOCK) {
        const tsr_dim_t m = TSR_MIN(PORTABLE_BLOCK, len - start);
        float acc[PORTABLE_BLOCK];
        const float *src0 = srcs[0] + start;
        for (tsr_dim_t j = 0; j < m; j++)
            acc[j] = scales[0] * src0[j];
        for (int i = 1; i < n; i++) {
            const float *src = srcs[i] + start;
            const float scale = scales[i];
            for (tsr_dim_t j = 0; j < m; j++)
                acc[j] = acc[j] + scale * src[j];
        }
        for (tsr_dim_t j = 0; j < m; j++)
            dst[start + j] = acc[j];
    }
}

/* The part [*begin, *end) of nelems elements that thread ithr of nthr
 * takes. */
static void thread_chunk(tsr_dim_t nelems, int ithr, int nthr, tsr_dim_t *begin,
                         tsr_dim_t *end) {
    const tsr_dim_t chunk = tsr_rnd_up(tsr_div_up(nelems, nthr), CHUNK_ALIGN);
    *begin = TSR_MIN(nelems, chunk * ithr);
    *end = TSR_MIN(nelems, *begin + chunk);
}

static int sum_threads(tsr_dim_t nelems) {
    return nelems < SUM_PARALLEL_MIN ? 1 : omp_get_max_threads();
}

/* The sources' and dst's origins (offset0 applied), as bytes. */
static char *dense_origin(const tsr_memory_desc_t *md, void *data) {
    return (char *)data +
           (size_t)md->offset0 * tsr_data_type_size(md->data_type);
}

tsr_status_t sum_f32_dense_execute(const struct tsr_primitive_desc *pd,
                                   const tsr_exec_ctx_t *ctx,
                                   sum_f32_kernel_t kernel) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const float *srcs[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < desc->n; i++)
        srcs[i] = (const float *)dense_origin(
                &pd->md[TSR_MD_MULTIPLE_SRC + i],
                tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i));
    float *dst = (float *)dense_origin(&pd->md[TSR_MD_DST],
                                       tsr_ctx_data(ctx, TSR_ARG_DST));
    const tsr_dim_t nelems = sum_dense_nelems(pd);
    const int stream =
            nelems * (tsr_dim_t)sizeof(float) >= SUM_STREAM_MIN_BYTES;
#pragma omp parallel num_threads(sum_threads(nelems))
    {
        tsr_dim_t begin, end;
        thread_chunk(nelems, omp_get_thread_num(), omp_get_num_threads(),
                     &begin, &end);
        if (begin < end) {
            const float *chunk_srcs[TSR_MAX_MULTIPLE_SRC];
            for (int i = 0; i < desc->n; i++)
                chunk_srcs[i] = srcs[i] + begin;
            kernel(dst + begin, chunk_srcs, desc->scales, desc->n, end - begin,
                   stream);
        }
    }
    return tsr_success;
}

/* Mixed data types: each piece of every source converted to f32 and
 * accumulated in the reference's order, then converted into dst. */
static void sum_staged_range(const struct tsr_primitive_desc *pd,
                             const char *const *srcs, char *dst,
                             tsr_dim_t begin, tsr_dim_t end) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const tsr_data_type_t dst_dt = pd->md[TSR_MD_DST].data_type;
    float acc[STAGE_LEN], buf[STAGE_LEN];
    for (tsr_dim_t start = begin; start < end; start += STAGE_LEN) {
        const tsr_dim_t len = TSR_MIN(STAGE_LEN, end - start);
        for (int i = 0; i < desc->n; i++) {
            const tsr_data_type_t dt =
                    pd->md[TSR_MD_MULTIPLE_SRC + i].data_type;
            tsr_cvt_to_f32_strided(
                    dt, srcs[i] + (size_t)start * tsr_data_type_size(dt), 1,
                    buf, 1, len);
            const float scale = desc->scales[i];
            if (i == 0)
                for (tsr_dim_t j = 0; j < len; j++)
                    acc[j] = scale * buf[j];
            else
                for (tsr_dim_t j = 0; j < len; j++)
                    acc[j] = acc[j] + scale * buf[j];
        }
        tsr_cvt_from_f32_strided(dst_dt, acc, 1,
                                 dst + (size_t)start *
                                                 tsr_data_type_size(dst_dt),
                                 1, len, tsr_round_nearest);
    }
}

static tsr_status_t sum_staged_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const char *srcs[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < desc->n; i++)
        srcs[i] = dense_origin(&pd->md[TSR_MD_MULTIPLE_SRC + i],
                               tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i));
    char *dst =
            dense_origin(&pd->md[TSR_MD_DST], tsr_ctx_data(ctx, TSR_ARG_DST));
    const tsr_dim_t nelems = sum_dense_nelems(pd);
#pragma omp parallel num_threads(sum_threads(nelems))
    {
        tsr_dim_t begin, end;
        thread_chunk(nelems, omp_get_thread_num(), omp_get_num_threads(),
                     &begin, &end);
        sum_staged_range(pd, srcs, dst, begin, end);
    }
    return tsr_success;
}

static tsr_status_t simple_sum_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = sum_init_common(pd);
    if (st != tsr_success)
        return st;
    return sum_is_dense(pd, 0) ? tsr_success : tsr_unimplemented;
}

static tsr_status_t simple_sum_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    if (sum_is_dense(pd, 1))
        return sum_f32_dense_execute(pd, ctx, sum_f32_portable);
    return sum_staged_execute(pd, ctx);
}

const tsr_impl_t tsr_simple_sum_dense_impl = {
        .name = "simple:dense",
        .isa = tsr_cpu_isa_generic,
        .init = simple_sum_init,
        .execute = simple_sum_execute,
        .fini = NULL,
};

/* Sources and dst in f32, bf16 or f16 on the typed kernels, threads on
 * contiguous chunks. */
static tsr_status_t sum_typed_dense_execute(const struct tsr_primitive_desc *pd,
                                            const tsr_exec_ctx_t *ctx,
                                            sum_typed_kernel_t kernel) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const char *srcs[TSR_MAX_MULTIPLE_SRC];
    tsr_data_type_t src_dts[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < desc->n; i++) {
        srcs[i] = dense_origin(&pd->md[TSR_MD_MULTIPLE_SRC + i],
                               tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i));
        src_dts[i] = pd->md[TSR_MD_MULTIPLE_SRC + i].data_type;
    }
    const tsr_data_type_t dst_dt = pd->md[TSR_MD_DST].data_type;
    char *dst =
            dense_origin(&pd->md[TSR_MD_DST], tsr_ctx_data(ctx, TSR_ARG_DST));
    const tsr_dim_t nelems = sum_dense_nelems(pd);
    const int stream = nelems * (tsr_dim_t)tsr_data_type_size(dst_dt) >=
                       SUM_STREAM_MIN_BYTES;
#pragma omp parallel num_threads(sum_threads(nelems))
    {
        tsr_dim_t begin, end;
        thread_chunk(nelems, omp_get_thread_num(), omp_get_num_threads(),
                     &begin, &end);
        if (begin < end) {
            const void *chunk_srcs[TSR_MAX_MULTIPLE_SRC];
            for (int i = 0; i < desc->n; i++)
                chunk_srcs[i] = srcs[i] +
                                (size_t)begin * tsr_data_type_size(src_dts[i]);
            kernel(dst + (size_t)begin * tsr_data_type_size(dst_dt), dst_dt,
                   chunk_srcs, src_dts, desc->scales, desc->n, end - begin,
                   stream);
        }
    }
    return tsr_success;
}

static int is_float_type(tsr_data_type_t dt) {
    return dt == tsr_f32 || dt == tsr_bf16 || dt == tsr_f16;
}

/* The dense case with f32, bf16 and f16 only, on the AVX2 and AVX-512
 * kernels. */
static tsr_status_t sum_vec_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = sum_init_common(pd);
    if (st != tsr_success)
        return st;
    if (!sum_is_dense(pd, 0) || !is_float_type(pd->md[TSR_MD_DST].data_type))
        return tsr_unimplemented;
    for (int i = 0; i < pd->op.multi.n; i++)
        if (!is_float_type(pd->md[TSR_MD_MULTIPLE_SRC + i].data_type))
            return tsr_unimplemented;
    return tsr_success;
}

static tsr_status_t sum_f32_avx2_execute(const struct tsr_primitive_desc *pd,
                                         const tsr_exec_ctx_t *ctx) {
    if (sum_is_dense(pd, 1))
        return sum_f32_dense_execute(pd, ctx, sum_f32_avx2);
    return sum_typed_dense_execute(pd, ctx, sum_typed_avx2);
}

static tsr_status_t sum_f32_avx512_execute(const struct tsr_primitive_desc *pd,
                                           const tsr_exec_ctx_t *ctx) {
    if (sum_is_dense(pd, 1))
        return sum_f32_dense_execute(pd, ctx, sum_f32_avx512);
    return sum_typed_dense_execute(pd, ctx, sum_typed_avx512);
}

const tsr_impl_t tsr_sum_f32_avx2_impl = {
        .name = "avx2:dense",
        .isa = tsr_cpu_isa_avx2,
        .init = sum_vec_init,
        .execute = sum_f32_avx2_execute,
        .fini = NULL,
};

const tsr_impl_t tsr_sum_f32_avx512_impl = {
        .name = "avx512_core:dense",
        .isa = tsr_cpu_isa_avx512_core,
        .init = sum_vec_init,
        .execute = sum_f32_avx512_execute,
        .fini = NULL,
};
