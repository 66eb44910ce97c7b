/* Reading the fuzz input and building descriptors from it. */
#include "fuzz_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

uint8_t fuzz_u8(fuzz_bytes_t *b) {
    if (b->n == 0)
        return 0;
    b->n--;
    return *b->p++;
}

uint32_t fuzz_u32(fuzz_bytes_t *b) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | fuzz_u8(b);
    return v;
}

uint64_t fuzz_u64(fuzz_bytes_t *b) {
    return (uint64_t)fuzz_u32(b) << 32 | fuzz_u32(b);
}

int fuzz_int(fuzz_bytes_t *b, int lo, int hi) {
    const uint32_t span = (uint32_t)(hi - lo) + 1;
    return lo + (int)((span > 256 ? fuzz_u32(b) : fuzz_u8(b)) % span);
}

tsr_dim_t fuzz_dim(fuzz_bytes_t *b, int max_small) {
    static const tsr_dim_t edges[] = {
            0,
            -1,
            17,
            64,
            1000,
            (tsr_dim_t)1 << 16,
            INT32_MAX,
            (tsr_dim_t)1 << 31,
            (tsr_dim_t)1 << 32,
            3037000500, /* its square overflows int64 */
            (tsr_dim_t)1 << 40,
            (tsr_dim_t)1 << 58,
            ((tsr_dim_t)1 << 58) + 1,
            (tsr_dim_t)1 << 62,
            INT64_MAX,
            INT64_MIN,
    };
    const uint8_t v = fuzz_u8(b);
    if (v < 0xf0)
        return 1 + v % max_small;
    /* One edge in 16 reads of 0xf0 and above: a raw value. */
    if (v == 0xff && fuzz_u8(b) == 0xff)
        return (tsr_dim_t)fuzz_u64(b);
    return edges[v - 0xf0];
}

float fuzz_float(fuzz_bytes_t *b) {
    static const float values[] = {
            0.f, 1.f,      -1.f,      0.5f,  2.f,    -0.25f, 3.f,   100.f,
            NAN, INFINITY, -INFINITY, 3e38f, 1e-40f, -0.f,   127.f, -128.f};
    const uint8_t v = fuzz_u8(b);
    if (v < 16)
        return values[v];
    if (v == 0xff) {
        const uint32_t bits = fuzz_u32(b);
        float f;
        memcpy(&f, &bits, sizeof(f));
        return f;
    }
    return (float)(v % 32) / 4.f - 2.f;
}

tsr_data_type_t fuzz_data_type(fuzz_bytes_t *b) {
    static const tsr_data_type_t types[] = {
            tsr_f32,
            tsr_f32,
            tsr_bf16,
            tsr_f16,
            tsr_s32,
            tsr_s8,
            tsr_u8,
            tsr_u8,
            tsr_s8,
            tsr_f32,
            tsr_bf16,
            tsr_f16,
            tsr_s32,
            tsr_f32,
            tsr_data_type_undef,
            (tsr_data_type_t)77,
    };
    return types[fuzz_u8(b) % 16];
}

void fuzz_tag(fuzz_bytes_t *b, int ndims, char *buf, size_t len) {
    static const char *const aliases[] = {
            "nchw",    "nhwc",          "chwn", "ncdhw", "ndhwc",      "nChw8c",
            "nChw16c", "oihw",          "hwio", "goihw", "OIhw16i16o", "bfyx",
            "byxf",    "b_fs_yx_fsv16", "ab",   "ba",    "x",
    };
    const uint8_t how = fuzz_u8(b);
    if (len < 2 * TSR_MAX_NDIMS + 16) {
        snprintf(buf, len, "any");
        return;
    }
    if (how < 16) {
        snprintf(buf, len, "any");
        return;
    }
    if (how < 32) {
        snprintf(buf, len, "%s",
                 aliases[fuzz_u8(b) % (sizeof(aliases) / sizeof(aliases[0]))]);
        return;
    }
    if (how < 36) { /* raw text for the tag parser */
        size_t n = fuzz_u8(b) % 24, i = 0;
        for (; i < n && i + 1 < len; i++)
            buf[i] = (char)(fuzz_u8(b) | 1); /* never NUL */
        buf[i] = '\0';
        return;
    }
    if (ndims < 1 || ndims > TSR_MAX_NDIMS) {
        snprintf(buf, len, "abcd");
        return;
    }
    /* A permutation of the dims, outermost first (Fisher-Yates). */
    char letters[TSR_MAX_NDIMS];
    for (int d = 0; d < ndims; d++)
        letters[d] = (char)('a' + d);
    if (how & 1)
        for (int d = ndims - 1; d > 0; d--) {
            const int k = fuzz_int(b, 0, d);
            const char t = letters[d];
            letters[d] = letters[k];
            letters[k] = t;
        }
    int pos = 0;
    for (int d = 0; d < ndims; d++)
        buf[pos++] = letters[d];
    buf[pos] = '\0';
    /* Up to two inner blocks: the blocked dims' letters go upper case. */
    const int nblocks = (how >> 1) % 3;
    static const int sizes[] = {2, 4, 8, 16, 32, 3};
    for (int k = 0; k < nblocks; k++) {
        const int d = fuzz_int(b, 0, ndims - 1);
        const int size = sizes[fuzz_u8(b) % 6];
        for (int i = 0; i < ndims; i++)
            if (buf[i] == 'a' + d)
                buf[i] = (char)('A' + d);
        pos += snprintf(buf + pos, len - (size_t)pos, "%d%c", size, 'a' + d);
    }
}

tsr_status_t fuzz_md(fuzz_bytes_t *b, tsr_memory_desc_t *md, int ndims,
                     const tsr_dim_t *dims, tsr_data_type_t dt) {
    const uint8_t how = fuzz_u8(b) % 8;
    if (how == 0 && ndims >= 1 && ndims <= TSR_MAX_NDIMS) {
        /* Strides: dense from a permutation, with gaps sometimes. */
        tsr_dims_t strides;
        tsr_dim_t stride = 1;
        for (int d = ndims - 1; d >= 0; d--) {
            if (fuzz_u8(b) < 16) {
                strides[d] = fuzz_dim(b, 64); /* made up */
                continue;
            }
            strides[d] = stride;
            tsr_dim_t extent; /* the dim, plus a gap sometimes */
            if (__builtin_add_overflow(dims[d], fuzz_u8(b) & 1, &extent) ||
                __builtin_mul_overflow(stride, extent, &stride))
                stride = 1;
        }
        return tsr_memory_desc_init_by_strides(md, ndims, dims, dt,
                                               fuzz_u8(b) & 1 ? strides : NULL);
    }
    char tag[64];
    fuzz_tag(b, ndims, tag, sizeof(tag));
    return tsr_memory_desc_init_by_tag(md, ndims, dims, dt, tag);
}

tsr_dim_t fuzz_nelems(int ndims, const tsr_dim_t *dims) {
    tsr_dim_t n = 1;
    for (int d = 0; d < ndims; d++)
        if (dims[d] <= 0 || __builtin_mul_overflow(n, dims[d], &n))
            return -1;
    return n;
}
