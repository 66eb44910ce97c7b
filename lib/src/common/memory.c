/* Memory objects: a descriptor plus a buffer that is either the library's
 * (64-byte aligned, zero-filled) or the user's. */
#include <stdlib.h>
#include <string.h>

#include "memory_desc.h"
#include "primitive.h"
#include "utils.h"

/* Resolves `handle` into a buffer for `md`: allocates for
 * TSR_MEMORY_ALLOCATE, otherwise takes the user's pointer (or none). */
static tsr_status_t acquire_buffer(const tsr_memory_desc_t *md, void *handle,
                                   void **data, int *owned) {
    if (handle == TSR_MEMORY_ALLOCATE) {
        const size_t size = tsr_memory_desc_get_size(md);
        void *buffer = tsr_malloc(size);
        if (!buffer)
            return tsr_out_of_memory;
        memset(buffer, 0, size);
        *data = buffer;
        *owned = 1;
        return tsr_success;
    }
    /* Blocked tails must read as zero; a user buffer gets its padding
     * cleared here, as the layout promises it is. */
    md_zero_pad(md, handle);
    *data = handle;
    *owned = 0;
    return tsr_success;
}

tsr_status_t tsr_memory_create(tsr_memory_t *memory,
                               const tsr_memory_desc_t *md, tsr_engine_t engine,
                               void *handle) {
    if (!memory || !md || !engine || !md_is_valid(md) ||
        md->format_kind != tsr_format_kind_blocked)
        return tsr_invalid_arguments;
    struct tsr_memory *created = malloc(sizeof(*created));
    if (!created)
        return tsr_out_of_memory;
    created->md = *md;
    created->engine = engine;
    tsr_status_t status =
            acquire_buffer(md, handle, &created->data, &created->owned);
    if (status != tsr_success) {
        free(created);
        return status;
    }
    *memory = created;
    return tsr_success;
}

tsr_status_t tsr_memory_get_desc(const_tsr_memory_t memory,
                                 const tsr_memory_desc_t **md) {
    if (!memory || !md)
        return tsr_invalid_arguments;
    *md = &memory->md;
    return tsr_success;
}

tsr_status_t tsr_memory_get_data_handle(const_tsr_memory_t memory,
                                        void **handle) {
    if (!memory || !handle)
        return tsr_invalid_arguments;
    *handle = memory->data;
    return tsr_success;
}

tsr_status_t tsr_memory_set_data_handle(tsr_memory_t memory, void *handle) {
    if (!memory)
        return tsr_invalid_arguments;
    void *data = NULL;
    int owned = 0;
    tsr_status_t status = acquire_buffer(&memory->md, handle, &data, &owned);
    if (status != tsr_success)
        return status;
    if (memory->owned)
        tsr_free(memory->data);
    memory->data = data;
    memory->owned = owned;
    return tsr_success;
}

tsr_status_t tsr_memory_zero_pad(tsr_memory_t memory) {
    if (!memory || !memory->data)
        return tsr_invalid_arguments;
    md_zero_pad(&memory->md, memory->data);
    return tsr_success;
}

tsr_status_t tsr_memory_destroy(tsr_memory_t memory) {
    if (!memory)
        return tsr_success;
    if (memory->owned)
        tsr_free(memory->data);
    free(memory);
    return tsr_success;
}
