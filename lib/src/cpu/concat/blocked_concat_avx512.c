/* The AVX-512 row of a blocked concat: per 64 bytes of dst, one masked
 * byte load per lane run merged into one vector, stored whole. Masked-off
 * bytes are neither read nor faulted on, so the shifted loads stay safe at
 * the ends of the sources. Large concats store aligned rows past the
 * caches, as dst is not read again soon. */
#include <immintrin.h>
#include <stdint.h>

#include "concat.h"

static inline __m512i merge_runs(const concat_lane_run_t *runs, int nruns,
                                 size_t x, __mmask64 keep) {
    __m512i v = _mm512_setzero_si512();
    for (int k = 0; k < nruns; k++)
        if (runs[k].src)
            v = _mm512_mask_loadu_epi8(v, runs[k].mask & keep, runs[k].src + x);
    return v;
}

void concat_blocked_row_avx512(char *dst, size_t nbytes, int point_bytes,
                               const concat_lane_run_t *runs, int nruns,
                               int stream) {
    (void)point_bytes;
    size_t x = 0;
    if (stream && ((uintptr_t)dst & 63) == 0) {
        for (; x + 64 <= nbytes; x += 64)
            _mm512_stream_si512((void *)(dst + x),
                                merge_runs(runs, nruns, x, ~0ull));
        _mm_sfence();
    }
    for (; x + 64 <= nbytes; x += 64)
        _mm512_storeu_si512(dst + x, merge_runs(runs, nruns, x, ~0ull));
    if (x < nbytes) {
        const __mmask64 tail = (1ull << (nbytes - x)) - 1;
        _mm512_mask_storeu_epi8(dst + x, tail,
                                merge_runs(runs, nruns, x, tail));
    }
}
