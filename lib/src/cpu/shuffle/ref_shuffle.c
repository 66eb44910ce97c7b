/* The reference shuffle: any layout, element bytes moved one point at a
 * time through the generic offset function; rows of the innermost logical
 * dim are spread over the threads. */
#include <string.h>

#include "common/memory_desc.h"
#include "shuffle.h"

static tsr_status_t ref_shuffle_execute(const struct tsr_primitive_desc *pd,
                                        const tsr_exec_ctx_t *ctx) {
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    const tsr_memory_desc_t *in_md = &pd->md[conf.in_slot];
    const tsr_memory_desc_t *out_md = &pd->md[conf.out_slot];
    const char *in = tsr_ctx_data(ctx, conf.in_arg);
    char *out = tsr_ctx_data(ctx, conf.out_arg);
    const size_t esize = tsr_data_type_size(in_md->data_type);
    const tsr_dim_t per_group = conf.axis_size / conf.group;

    const int ndims = in_md->ndims;
    const tsr_dim_t row_len = in_md->dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(in_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >=                \
                                              SHUFFLE_PARALLEL_MIN)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(in_md, row * row_len, pos);
        for (tsr_dim_t x = 0; x < row_len; x++) {
            pos[ndims - 1] = x;
            const char *from = in + (size_t)md_off_v(in_md, pos) * esize;
            const tsr_dim_t a = pos[conf.axis];
            pos[conf.axis] = (a % conf.group) * per_group + a / conf.group;
            memcpy(out + (size_t)md_off_v(out_md, pos) * esize, from, esize);
            pos[conf.axis] = a;
        }
    }
    md_zero_pad(out_md, out);
    return tsr_success;
}

const tsr_impl_t tsr_ref_shuffle_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = shuffle_init_common,
        .execute = ref_shuffle_execute,
        .fini = NULL,
};
