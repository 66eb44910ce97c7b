/* benchdnn's command line run inside a fuzz target's process: usage errors
 * come back here (a hooked bench_usage_exit) instead of ending the process,
 * and nothing is run that would take long or much memory. */
#ifndef TSR_FUZZ_BENCH_FUZZ_H
#define TSR_FUZZ_BENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/batch.h"

/* Call once (LLVMFuzzerInitialize): benchdnn's output goes to /dev/null
 * unless TSR_FUZZ_VERBOSE is set (to see why a reproducer fails). */
void bench_fuzz_init(void);

/* Appends the tokens of `data` (separated by newlines and NUL bytes; empty
 * ones dropped) to `out`. */
void bench_fuzz_split(const uint8_t *data, size_t size, token_list_t *out);

/* Runs benchdnn's command line on `tokens` (argv without the program:
 * common options, the driver, its options and problems) with --mode=L
 * forced, or --mode=I (primitives created, nothing executed) when every
 * number in the tokens is small. Options that would run long or read
 * files (--mode, --batch, --repeats-per-prb, --match with repetitions)
 * are dropped, and inputs whose comma lists multiply into many problems
 * are not run. Returns benchdnn's exit status, -1 when not run. */
int bench_fuzz_run(int ntokens, char **tokens);

#endif
