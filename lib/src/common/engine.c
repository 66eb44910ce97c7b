/* The CPU engine and its stream. Execution is synchronous, so a stream
 * only remembers its engine. */
#include <stdlib.h>

#include "primitive.h"

tsr_status_t tsr_engine_create(tsr_engine_t *engine, tsr_engine_kind_t kind,
                               size_t index) {
    if (!engine || kind != tsr_cpu || index != 0)
        return tsr_invalid_arguments;
    struct tsr_engine *created = malloc(sizeof(*created));
    if (!created)
        return tsr_out_of_memory;
    created->kind = kind;
    *engine = created;
    return tsr_success;
}

tsr_status_t tsr_engine_destroy(tsr_engine_t engine) {
    free(engine);
    return tsr_success;
}

tsr_status_t tsr_stream_create(tsr_stream_t *stream, tsr_engine_t engine) {
    if (!stream || !engine)
        return tsr_invalid_arguments;
    struct tsr_stream *created = malloc(sizeof(*created));
    if (!created)
        return tsr_out_of_memory;
    created->engine = engine;
    *stream = created;
    return tsr_success;
}

tsr_status_t tsr_stream_wait(tsr_stream_t stream) {
    return stream ? tsr_success : tsr_invalid_arguments;
}

tsr_status_t tsr_stream_destroy(tsr_stream_t stream) {
    free(stream);
    return tsr_success;
}
