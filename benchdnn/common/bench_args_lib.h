/* The library side of the argument-keyed pipeline (bench_args.h): what a
 * run asks of the library it tests. Tessera's calls are in bench_args.c,
 * oneDNN's in onednn/onednn_args.c. Memories are the harness' (dnn_mem_t,
 * allocated from Tessera memory descriptors); a library wraps their
 * buffers in its own memory objects. */
#ifndef BENCHDNN_COMMON_BENCH_ARGS_LIB_H
#define BENCHDNN_COMMON_BENCH_ARGS_LIB_H

#include <stddef.h>

#include "common/bench_args.h"

struct bench_args_lib {
    /* 1 when the problem has a forward pd (a backward problem). */
    int (*has_fwd)(const bench_args_run_t *r);
    /* How the pd (fwd: the forward pd) uses argument `arg`, and its
     * descriptor in *md when used. 0 with res set when the library's
     * descriptor has no Tessera equivalent. */
    int (*arg)(const bench_args_run_t *r, int fwd, int arg,
               tsr_arg_usage_t *usage, tsr_memory_desc_t *md, res_t *res);
    /* Bytes of the library's memories and scratchpad of both pds. */
    size_t (*pd_bytes)(const bench_args_run_t *r);
    /* Writes the dense f32 `values` of input r->mems[i] into a memory the
     * library lays out itself, beyond what a Tessera descriptor says
     * (oneDNN's int8 weights with compensation, filled by its own
     * reorder as its users do), and leaves in `values` what the primitive
     * reads: 1 done, 0 failed, -1 not such a memory (the harness writes
     * r->mems[i].mem). NULL: never. */
    int (*store)(bench_args_run_t *r, int i, float *values);
    /* The primitives of the pds. 0 with res set. */
    int (*create_primitives)(bench_args_run_t *r, res_t *res);
    /* The execution arguments: r->mems (an alias shares its entry's
     * buffer), the user scratchpad and the attribute memories (binary
     * post-op inputs' f32 values in r->bin_f32). 0 when out of memory. */
    int (*bind)(bench_args_run_t *r, const bench_args_ops_t *ops, res_t *res);
    /* Runs the primitive (fwd: the forward one) to completion: 1, or 0
     * with the library's status text in `why`. */
    int (*execute)(const bench_args_run_t *r, int fwd, char *why, size_t len);
    /* Releases what the library side created. */
    void (*release)(bench_args_run_t *r);
};

/* oneDNN's calls, where it is built in. */
#ifdef BENCHDNN_WITH_ONEDNN
extern const bench_args_lib_t bench_args_onednn_lib;
#endif

#endif
