/* Run-time CPU feature detection, capped by TSR_MAX_CPU_ISA. */
#ifndef TSR_COMMON_ISA_H
#define TSR_COMMON_ISA_H

#include "tessera.h"

/* 1 when kernels for `isa` may run: the CPU has it and the cap allows it. */
int tsr_mayiuse(tsr_cpu_isa_t isa);

#endif
