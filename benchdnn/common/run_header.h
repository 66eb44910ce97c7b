/* The run header: `#`-prefixed key=value lines printed once before the
 * first performance line, so a saved output file names the build and the
 * machine it was measured on. Keys, in this order:
 *   date       UTC, ISO 8601 (2026-11-22T07:50:00Z)
 *   commit     `git describe --always --dirty` at CMake configure time,
 *              "unknown" outside a git checkout
 *   compiler   CMake's compiler id and version ("GNU 12.2.0")
 *   build_type CMAKE_BUILD_TYPE
 *   build_options  the project's build options (sanitize, werror, onednn)
 *   isa        tsr_get_effective_cpu_isa(), after TSR_MAX_CPU_ISA
 *   threads    omp_get_max_threads()
 *   cpu        "model name" of /proc/cpuinfo, "unknown" when absent
 *   host       the host name
 * Readers skip unknown keys; new keys are only ever appended. */
#ifndef BENCHDNN_COMMON_RUN_HEADER_H
#define BENCHDNN_COMMON_RUN_HEADER_H

#include <stddef.h>

#define RUN_HEADER_MAX_KEYS 16

typedef struct {
    int n;
    const char *key[RUN_HEADER_MAX_KEYS];
    char value[RUN_HEADER_MAX_KEYS][160];
} run_header_t;

/* Fills the header's keys and values (no printing). */
void run_header_collect(run_header_t *h);

/* Prints the header ("# key=value" lines) the first time it is called in
 * the process; later calls print nothing. */
void run_header_print_once(void);

#endif
