/* CPU feature detection and the ISA cap.
 *
 * The ISA levels are cumulative: a level is usable when the CPU (and the
 * OS, which must save the wider registers) supports it and every level
 * below, and when it does not exceed the cap. The cap comes from
 * tsr_set_max_cpu_isa or, failing that, TSR_MAX_CPU_ISA (oneDNN's
 * ONEDNN_MAX_CPU_ISA names are accepted as values too). It freezes at the
 * first dispatch so that every primitive of a process sees the same one. */
#define _GNU_SOURCE /* syscall() */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "isa.h"

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_xcr0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

/* Linux hands out the 8 KiB tile state only to a process that asks for
 * it (once, for all its threads); without it the first tile instruction
 * faults. Elsewhere XCR0 alone tells. */
static int amx_permitted(void) {
#if defined(__linux__) && defined(__x86_64__)
    enum { arch_req_xcomp_perm = 0x1023, xfeature_xtiledata = 18 };
    return syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) ==
           0;
#else
    return 1;
#endif
}

static tsr_cpu_isa_t detect_cpu_isa(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return tsr_cpu_isa_generic;
    const int sse41 = (c >> 19) & 1, fma = (c >> 12) & 1;
    /* The AVX2 conversion kernels use F16C (vcvtph2ps/vcvtps2ph). */
    const int f16c = (c >> 29) & 1;
    const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!sse41)
        return tsr_cpu_isa_generic;
    if (!osxsave || !avx)
        return tsr_cpu_isa_sse41;
    const uint64_t xcr0 = read_xcr0();
    const int os_ymm = (xcr0 & 0x6) == 0x6;   /* XMM and YMM state */
    const int os_zmm = (xcr0 & 0xe6) == 0xe6; /* + opmask, ZMM_Hi256, Hi16 */
    if (!os_ymm || __get_cpuid_max(0, NULL) < 7)
        return tsr_cpu_isa_sse41;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1;
    const int avx512f = (b >> 16) & 1, avx512dq = (b >> 17) & 1;
    const int avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    const int vnni = (c >> 11) & 1;
    const unsigned max_subleaf = a;
    if (!avx2 || !fma || !f16c)
        return tsr_cpu_isa_sse41;
    if (!os_zmm || !(avx512f && avx512dq && avx512bw && avx512vl))
        return tsr_cpu_isa_avx2;
    if (!vnni)
        return tsr_cpu_isa_avx512_core;
    /* AMX: tile, int8 and bf16 products (leaf 7 EDX). */
    const int amx = ((d >> 24) & 1) && ((d >> 25) & 1) && ((d >> 22) & 1);
    int bf16 = 0;
    if (max_subleaf >= 1) {
        __cpuid_count(7, 1, a, b, c, d);
        bf16 = (a >> 5) & 1;
    }
    if (!bf16)
        return tsr_cpu_isa_avx512_core_vnni;
    const int os_tiles = (xcr0 & 0x60000) == 0x60000; /* XTILECFG, DATA */
    return amx && os_tiles && amx_permitted() ? tsr_cpu_isa_avx512_core_amx
                                              : tsr_cpu_isa_avx512_core_bf16;
}
#else
static tsr_cpu_isa_t detect_cpu_isa(void) {
    return tsr_cpu_isa_generic;
}
#endif

/* -1 until known. */
static atomic_int detected_isa = -1;
static atomic_int api_cap = -1; /* set by tsr_set_max_cpu_isa */
static atomic_int env_cap = -1;
static atomic_int cap_frozen = 0;

static const struct {
    const char *name;
    tsr_cpu_isa_t isa;
} isa_names[] = {
        {"generic", tsr_cpu_isa_generic},
        {"sse41", tsr_cpu_isa_sse41},
        {"avx", tsr_cpu_isa_sse41}, /* no AVX-only kernels: next below */
        {"avx2", tsr_cpu_isa_avx2},
        {"avx2_vnni", tsr_cpu_isa_avx2},
        {"avx2_vnni_2", tsr_cpu_isa_avx2},
        {"avx512_core", tsr_cpu_isa_avx512_core},
        {"avx512_core_vnni", tsr_cpu_isa_avx512_core_vnni},
        {"avx512_core_bf16", tsr_cpu_isa_avx512_core_bf16},
        /* oneDNN's fp16 levels add nothing this library uses. */
        {"avx512_core_fp16", tsr_cpu_isa_avx512_core_bf16},
        {"avx10_1_512", tsr_cpu_isa_avx512_core_bf16},
        {"avx512_core_amx", tsr_cpu_isa_avx512_core_amx},
        /* Higher oneDNN levels include everything this library has. */
        {"avx512_core_amx_fp16", tsr_cpu_isa_avx512_core_amx},
        {"avx10_1_512_amx", tsr_cpu_isa_avx512_core_amx},
        {"avx10_1_512_amx_fp16", tsr_cpu_isa_avx512_core_amx},
        {"all", tsr_cpu_isa_avx512_core_amx},
        {"default", tsr_cpu_isa_avx512_core_amx},
};

/* The cap a variable's value names, or -1 (with a warning) when unknown. */
static int parse_cap(const char *var, const char *value) {
    for (size_t i = 0; i < sizeof(isa_names) / sizeof(isa_names[0]); i++)
        if (strcasecmp(value, isa_names[i].name) == 0)
            return (int)isa_names[i].isa;
    fprintf(stderr, "tessera: warning: unknown %s value '%s' ignored\n", var,
            value);
    return -1;
}

static int cap_from_env(void) {
    int cap = atomic_load(&env_cap);
    if (cap != -1)
        return cap;
    /* -2: no cap set; cached so the warning prints once. */
    cap = -2;
    const char *v = getenv("TSR_MAX_CPU_ISA");
    const char *var = "TSR_MAX_CPU_ISA";
    if (!v || !*v) {
        v = getenv("ONEDNN_MAX_CPU_ISA");
        var = "ONEDNN_MAX_CPU_ISA";
    }
    if (v && *v) {
        int parsed = parse_cap(var, v);
        if (parsed >= 0)
            cap = parsed;
    }
    int expected = -1;
    atomic_compare_exchange_strong(&env_cap, &expected, cap);
    return atomic_load(&env_cap);
}

static tsr_cpu_isa_t cpu_isa(void) {
    int isa = atomic_load(&detected_isa);
    if (isa < 0) {
        isa = (int)detect_cpu_isa();
        atomic_store(&detected_isa, isa);
    }
    return (tsr_cpu_isa_t)isa;
}

tsr_cpu_isa_t tsr_get_effective_cpu_isa(void) {
    int isa = (int)cpu_isa();
    int cap = atomic_load(&api_cap);
    if (cap < 0)
        cap = cap_from_env();
    if (cap >= 0 && cap < isa)
        isa = cap;
    return (tsr_cpu_isa_t)isa;
}

int tsr_mayiuse(tsr_cpu_isa_t isa) {
    atomic_store(&cap_frozen, 1);
    return (int)isa <= (int)tsr_get_effective_cpu_isa();
}

tsr_status_t tsr_set_max_cpu_isa(tsr_cpu_isa_t isa) {
    if ((int)isa < (int)tsr_cpu_isa_generic ||
        (int)isa > (int)tsr_cpu_isa_avx512_core_amx)
        return tsr_invalid_arguments;
    if (atomic_load(&cap_frozen))
        return tsr_invalid_arguments;
    atomic_store(&api_cap, (int)isa);
    return tsr_success;
}

int tsr_get_max_threads(void) {
    return omp_get_max_threads();
}
