/* Helpers the AlexNet conv3 examples (simple_net.c, simple_int8_net.c)
 * share: error checks, the layer's shape, deterministic data, a plain-loop
 * f32 convolution to check the library against, reorders into the layouts
 * a primitive chose, and execution with a user-owned scratchpad. Only the
 * public API (tessera.h) is used. */
#ifndef TESSERA_EXAMPLE_UTILS_H
#define TESSERA_EXAMPLE_UTILS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera.h"

#define CHECK(call)                                                            \
    do {                                                                       \
        tsr_status_t s_ = (call);                                              \
        if (s_ != tsr_success) {                                               \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,      \
                    #call, tsr_status2str(s_));                                \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* AlexNet conv3: 256x13x13 -> 384x13x13, 3x3 kernel, stride 1, padding 1. */
typedef struct {
    tsr_dim_t mb, ic, ih, iw, oc, oh, ow, kh, kw, pad;
} conv_shape_t;

static inline conv_shape_t alexnet_conv3(tsr_dim_t mb) {
    conv_shape_t s = {mb, 256, 13, 13, 384, 13, 13, 3, 3, 1};
    return s;
}

static inline size_t src_count(const conv_shape_t *s) {
    return (size_t)(s->mb * s->ic * s->ih * s->iw);
}
static inline size_t wei_count(const conv_shape_t *s) {
    return (size_t)(s->oc * s->ic * s->kh * s->kw);
}
static inline size_t dst_count(const conv_shape_t *s) {
    return (size_t)(s->mb * s->oc * s->oh * s->ow);
}

/* Logical dims of the three tensors and the bias. */
static inline void conv_dims(const conv_shape_t *s, tsr_dim_t src[4],
                             tsr_dim_t wei[4], tsr_dim_t bia[1],
                             tsr_dim_t dst[4]) {
    const tsr_dim_t sd[4] = {s->mb, s->ic, s->ih, s->iw};
    const tsr_dim_t wd[4] = {s->oc, s->ic, s->kh, s->kw};
    const tsr_dim_t dd[4] = {s->mb, s->oc, s->oh, s->ow};
    memcpy(src, sd, sizeof(sd));
    memcpy(wei, wd, sizeof(wd));
    memcpy(dst, dd, sizeof(dd));
    bia[0] = s->oc;
}

/* Uniform values in [lo, hi) from a fixed-seed generator: every run sees
 * the same data, so the checks below are reproducible. */
static inline void fill_uniform(float *buf, size_t n, float lo, float hi,
                                uint32_t seed) {
    uint32_t state = seed;
    for (size_t i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        buf[i] = lo + (hi - lo) * (float)(state >> 8) / 16777216.f;
    }
}

/* The layer computed with plain loops on nchw / oihw data, accumulating
 * in double: dst = max(conv(src, wei) + bias, 0). */
static inline void ref_conv_relu_f32(const conv_shape_t *s, const float *src,
                                     const float *wei, const float *bias,
                                     float *dst) {
    for (tsr_dim_t n = 0; n < s->mb; n++)
        for (tsr_dim_t oc = 0; oc < s->oc; oc++)
            for (tsr_dim_t oh = 0; oh < s->oh; oh++)
                for (tsr_dim_t ow = 0; ow < s->ow; ow++) {
                    double acc = bias[oc];
                    for (tsr_dim_t ic = 0; ic < s->ic; ic++)
                        for (tsr_dim_t kh = 0; kh < s->kh; kh++) {
                            const tsr_dim_t ih = oh - s->pad + kh;
                            if (ih < 0 || ih >= s->ih)
                                continue;
                            for (tsr_dim_t kw = 0; kw < s->kw; kw++) {
                                const tsr_dim_t iw = ow - s->pad + kw;
                                if (iw < 0 || iw >= s->iw)
                                    continue;
                                acc += (double)src[((n * s->ic + ic) * s->ih +
                                                    ih) * s->iw +
                                                   iw] *
                                       wei[((oc * s->ic + ic) * s->kh + kh) *
                                                   s->kw +
                                           kw];
                            }
                        }
                    dst[((n * s->oc + oc) * s->oh + oh) * s->ow + ow] =
                            acc > 0 ? (float)acc : 0.f;
                }
}

/* Runs `prim` (created from `pd`). When the primitive descriptor asks for
 * a user scratchpad (its scratchpad descriptor has a non-zero size), the
 * caller owns that buffer: it is allocated here, passed as
 * TSR_ARG_SCRATCHPAD, and freed after the (synchronous) execution. */
static inline void execute(const_tsr_primitive_desc_t pd,
                           const_tsr_primitive_t prim, tsr_engine_t engine,
                           tsr_stream_t stream, int nargs,
                           const tsr_exec_arg_t *args) {
    tsr_exec_arg_t all[16];
    if (nargs + 1 > (int)(sizeof(all) / sizeof(all[0]))) {
        fprintf(stderr, "execute: too many arguments\n");
        exit(1);
    }
    memcpy(all, args, (size_t)nargs * sizeof(*args));
    const tsr_memory_desc_t *pad_md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    const size_t pad_size = tsr_memory_desc_get_size(pad_md);
    void *pad_buf = NULL;
    tsr_memory_t pad_mem = NULL;
    if (pad_size > 0) {
        pad_buf = malloc(pad_size);
        if (!pad_buf) {
            fprintf(stderr, "execute: no memory for the scratchpad\n");
            exit(1);
        }
        CHECK(tsr_memory_create(&pad_mem, pad_md, engine, pad_buf));
        all[nargs++] = (tsr_exec_arg_t){TSR_ARG_SCRATCHPAD, pad_mem};
    }
    CHECK(tsr_primitive_execute(prim, stream, nargs, all));
    CHECK(tsr_stream_wait(stream));
    if (pad_mem)
        tsr_memory_destroy(pad_mem);
    free(pad_buf);
}

/* Reorders `from` into `to`; `attr` (may be NULL) carries the scales that
 * quantize or dequantize on the way. */
static inline void reorder(tsr_memory_t from, tsr_memory_t to,
                           const_tsr_primitive_attr_t attr, tsr_engine_t engine,
                           tsr_stream_t stream) {
    const tsr_memory_desc_t *from_md, *to_md;
    CHECK(tsr_memory_get_desc(from, &from_md));
    CHECK(tsr_memory_get_desc(to, &to_md));
    tsr_primitive_desc_t pd;
    tsr_primitive_t prim;
    CHECK(tsr_reorder_primitive_desc_create(&pd, from_md, engine, to_md, engine,
                                            attr));
    CHECK(tsr_primitive_create(&prim, pd));
    const tsr_exec_arg_t args[] = {{TSR_ARG_FROM, from}, {TSR_ARG_TO, to}};
    execute(pd, prim, engine, stream, 2, args);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
}

/* The memory a primitive reads: `user` itself when it already has the
 * descriptor the primitive chose and nothing needs converting (`attr`
 * NULL), otherwise a library-allocated memory in that layout filled by a
 * reorder. Returns 1 when a new memory was made (the caller destroys it). */
static inline int memory_for_primitive(tsr_memory_t user,
                                       const tsr_memory_desc_t *wanted,
                                       const_tsr_primitive_attr_t attr,
                                       tsr_engine_t engine, tsr_stream_t stream,
                                       tsr_memory_t *out) {
    const tsr_memory_desc_t *user_md;
    CHECK(tsr_memory_get_desc(user, &user_md));
    if (!attr && tsr_memory_desc_equal(user_md, wanted)) {
        *out = user;
        return 0;
    }
    CHECK(tsr_memory_create(out, wanted, engine, TSR_MEMORY_ALLOCATE));
    reorder(user, *out, attr, engine, stream);
    return 1;
}

/* Prints a descriptor's layout, e.g. "src: u8 acdb". */
static inline void print_layout(const char *what, const tsr_memory_desc_t *md) {
    char layout[64];
    CHECK(tsr_memory_desc_layout_str(md, layout, sizeof(layout)));
    printf("  %-8s %-4s %s\n", what, tsr_data_type2str(md->data_type), layout);
}

#endif
