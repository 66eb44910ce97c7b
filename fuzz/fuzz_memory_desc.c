/* Memory descriptors through the public API: made by tag (the format tag
 * parser), by strides, field by field from the bytes, or valid and then
 * one field changed; then every query and memory creation on them.
 * Checked: a failed init leaves the descriptor untouched; a descriptor
 * has a size exactly when memory creation accepts it; every logical point
 * lies inside that size; zero padding stays inside the buffer (ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Memories this large or smaller get a buffer. */
#define MAX_BUFFER_BYTES ((size_t)1 << 20)

static tsr_engine_t engine;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_memory_desc: %s\n", what);
        abort();
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    check(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success, "engine");
    return 0;
}

static int fuzz_ndims(fuzz_bytes_t *b) {
    const uint8_t v = fuzz_u8(b);
    return v < 224 ? 1 + v % 6 : (int)(v % 16) - 2; /* -2 .. 13 */
}

/* Every field from the bytes, mostly near what a valid one holds. */
static void raw_md(fuzz_bytes_t *b, tsr_memory_desc_t *md) {
    memset(md, 0, sizeof(*md));
    md->ndims =
            fuzz_u8(b) < 240 ? fuzz_int(b, 0, TSR_MAX_NDIMS) : (int)fuzz_u32(b);
    md->data_type = fuzz_data_type(b);
    md->format_kind = (tsr_format_kind_t)(fuzz_u8(b) % 4);
    for (int d = 0; d < TSR_MAX_NDIMS; d++) {
        md->dims[d] = fuzz_dim(b, 16);
        const uint8_t pad = fuzz_u8(b);
        md->padded_dims[d] = pad < 128   ? md->dims[d]
                             : pad < 224 ? (tsr_dim_t)(pad % 32)
                                         : fuzz_dim(b, 64);
        md->padded_offsets[d] = fuzz_u8(b) < 250 ? 0 : fuzz_dim(b, 4);
        md->blocking.strides[d] = fuzz_dim(b, 64);
        md->blocking.inner_blks[d] = fuzz_dim(b, 16);
        md->blocking.inner_idxs[d] =
                fuzz_u8(b) < 240 ? fuzz_int(b, 0, 5) : fuzz_dim(b, 16);
    }
    const uint8_t nblks = fuzz_u8(b);
    md->blocking.inner_nblks = nblks < 200   ? nblks % 3
                               : nblks < 250 ? nblks % 16
                                             : (int)fuzz_u32(b);
    md->offset0 = fuzz_u8(b) < 200 ? 0 : fuzz_dim(b, 64);
    const uint8_t extra = fuzz_u8(b);
    md->extra.flags = extra < 200 ? 0 : extra < 250 ? 1 : fuzz_u64(b);
    md->extra.compensation_mask = fuzz_int(b, -1, 7);
}

/* A valid descriptor with one field set from the bytes. */
static int mutated_md(fuzz_bytes_t *b, tsr_memory_desc_t *md) {
    tsr_dims_t dims;
    const int ndims = fuzz_int(b, 1, 5);
    for (int d = 0; d < ndims; d++)
        dims[d] = fuzz_int(b, 1, 20);
    if (fuzz_md(b, md, ndims, dims, fuzz_data_type(b)) != tsr_success)
        return 0;
    const int d = fuzz_int(b, 0, TSR_MAX_NDIMS - 1);
    const tsr_dim_t v = fuzz_dim(b, 64);
    switch (fuzz_u8(b) % 10) {
    case 0:
        md->ndims = (int)v;
        break;
    case 1:
        md->dims[d] = v;
        break;
    case 2:
        md->padded_dims[d] = v;
        break;
    case 3:
        md->padded_offsets[d] = v;
        break;
    case 4:
        md->offset0 = v;
        break;
    case 5:
        md->blocking.strides[d] = v;
        break;
    case 6:
        md->blocking.inner_nblks = (int)v;
        break;
    case 7:
        md->blocking.inner_blks[d] = v;
        break;
    case 8:
        md->blocking.inner_idxs[d] = v;
        break;
    default:
        md->extra.flags = (uint64_t)v;
        md->extra.compensation_mask = (int)(v >> 8);
        break;
    }
    return 1;
}

static void exercise_memory(fuzz_bytes_t *b, const tsr_memory_desc_t *md,
                            size_t size) {
    tsr_memory_t mem;
    const tsr_status_t st =
            tsr_memory_create(&mem, md, engine, TSR_MEMORY_NONE);
    check((st == tsr_success) == (size > 0),
          "memory creation and the size disagree on validity");
    if (st != tsr_success)
        return;
    check(tsr_memory_zero_pad(mem) == tsr_invalid_arguments,
          "zero padding a memory without a buffer");
    if (size <= MAX_BUFFER_BYTES) {
        unsigned char *user = malloc(size);
        check(user != NULL, "malloc");
        for (size_t i = 0; i < size; i++)
            user[i] = fuzz_u8(b);
        check(tsr_memory_set_data_handle(mem, user) == tsr_success,
              "set_data_handle");
        check(tsr_memory_zero_pad(mem) == tsr_success, "zero_pad");
        tsr_memory_destroy(mem);
        free(user);
        check(tsr_memory_create(&mem, md, engine, TSR_MEMORY_ALLOCATE) ==
                      tsr_success,
              "memory with the library's buffer");
        check(tsr_memory_zero_pad(mem) == tsr_success, "zero_pad");
    }
    tsr_memory_destroy(mem);
}

static void exercise(fuzz_bytes_t *b, const tsr_memory_desc_t *md) {
    const size_t size = tsr_memory_desc_get_size(md);
    const tsr_dim_t nelems = tsr_memory_desc_nelems(md);
    char text[64];
    tsr_memory_desc_layout_str(md, text, sizeof(text));
    tsr_memory_desc_layout_str(md, text, 3);
    char tag[64];
    fuzz_tag(b, md->ndims, tag, sizeof(tag));
    tsr_memory_desc_matches_tag(md, tag);
    tsr_memory_desc_t copy = *md;
    tsr_memory_desc_equal(md, &copy);

    if (size > 0) {
        check(nelems > 0, "a size without elements");
        /* A logical point, in range, lies inside the buffer. */
        tsr_dims_t pos = {0};
        for (int d = 0; d < md->ndims; d++)
            pos[d] = fuzz_u8(b) < 128 ? md->dims[d] - 1
                                      : (tsr_dim_t)fuzz_u32(b) % md->dims[d];
        const tsr_dim_t off = tsr_memory_desc_offset(md, pos);
        const size_t dt_size = tsr_data_type_size(md->data_type);
        check(off >= 0 && dt_size > 0 && (size_t)off < size / dt_size,
              "a logical point outside the memory's size");
        const tsr_dim_t far = fuzz_dim(b, 64); /* out of range, mostly */
        pos[fuzz_int(b, 0, md->ndims - 1)] =
                far > INT64_MAX - 1000 ? far : far + 1000;
        tsr_memory_desc_offset(md, pos);
    }
    exercise_memory(b, md, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_bytes_t b = {data, size};
    tsr_memory_desc_t md, before;
    memset(&md, 0xa5, sizeof(md));
    before = md;
    const uint8_t how = fuzz_u8(&b) % 4;
    if (how <= 1) {
        const int ndims = fuzz_ndims(&b);
        tsr_dims_t dims;
        for (int d = 0; d < TSR_MAX_NDIMS; d++)
            dims[d] = fuzz_dim(&b, 16);
        const tsr_data_type_t dt = fuzz_data_type(&b);
        tsr_status_t st;
        if (how == 0) {
            char tag[64];
            fuzz_tag(&b, ndims, tag, sizeof(tag));
            st = tsr_memory_desc_init_by_tag(&md, ndims, dims, dt, tag);
        } else {
            tsr_dims_t strides;
            for (int d = 0; d < TSR_MAX_NDIMS; d++)
                strides[d] = fuzz_dim(&b, 64);
            st = tsr_memory_desc_init_by_strides(
                    &md, ndims, dims, dt, fuzz_u8(&b) & 1 ? strides : NULL);
        }
        if (st != tsr_success) {
            check(!memcmp(&md, &before, sizeof(md)),
                  "a failed init wrote the descriptor");
            return 0;
        }
    } else if (how == 2) {
        raw_md(&b, &md);
    } else if (!mutated_md(&b, &md)) {
        return 0;
    }
    exercise(&b, &md);
    return 0;
}
