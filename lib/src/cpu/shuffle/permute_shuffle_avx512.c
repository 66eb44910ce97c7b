/* AVX-512 kernel of the permuting shuffle: each output vector is built from
 * the few input vectors its channels come from, one masked permute each
 * (vpermd, vpermw, or pshufb on 16 bytes), and stored whole. An output
 * vector's permute controls stay in registers while it is built for every
 * point of a work item. */
#include <immintrin.h>

#include "common/utils.h"
#include "permute_shuffle.h"

/* Where a work item's output vectors go: vector v of point (o, s). */
typedef struct {
    const char *in;
    char *out;
    size_t outer_bytes, vec_bytes, vec_stride_bytes;
    tsr_dim_t o0, o1, s0, s1;
    int stream, full;
} permute_span_t;

static inline int aligned(const void *p, size_t bytes) {
    return (uintptr_t)p % bytes == 0;
}

/* The instructions of one element size, picked by `esize` (a constant
 * where inlined): vpermd, vpermw, or pshufb on the low 16 bytes of the
 * registers (a byte permute across 64 bytes needs AVX512_VBMI). */
static inline __attribute__((always_inline)) __m512i
load_control(size_t esize, const uint8_t *idx) {
    if (esize == 1)
        return _mm512_castsi128_si512(_mm_load_si128((const __m128i *)idx));
    return _mm512_load_si512(idx);
}

static inline __attribute__((always_inline)) __m512i
load_lanes(size_t esize, __mmask64 m, const char *from) {
    if (esize == 4)
        return _mm512_maskz_loadu_epi32((__mmask16)m, from);
    if (esize == 2)
        return _mm512_maskz_loadu_epi16((__mmask32)m, from);
    return _mm512_castsi128_si512(_mm_maskz_loadu_epi8((__mmask16)m, from));
}

/* The lanes of `take` from x permuted per idx, the others 0. */
static inline __attribute__((always_inline)) __m512i
permute_zero(size_t esize, __mmask64 take, __m512i idx, __m512i x) {
    if (esize == 4)
        return _mm512_maskz_permutexvar_epi32((__mmask16)take, idx, x);
    if (esize == 2)
        return _mm512_maskz_permutexvar_epi16((__mmask32)take, idx, x);
    return _mm512_castsi128_si512(
            _mm_maskz_shuffle_epi8((__mmask16)take, _mm512_castsi512_si128(x),
                                   _mm512_castsi512_si128(idx)));
}

/* The lanes of `take` from x permuted per idx, the others acc's. */
static inline __attribute__((always_inline)) __m512i
permute_merge(size_t esize, __m512i acc, __mmask64 take, __m512i idx,
              __m512i x) {
    if (esize == 4)
        return _mm512_mask_permutexvar_epi32(acc, (__mmask16)take, idx, x);
    if (esize == 2)
        return _mm512_mask_permutexvar_epi16(acc, (__mmask32)take, idx, x);
    return _mm512_castsi128_si512(_mm_mask_shuffle_epi8(
            _mm512_castsi512_si128(acc), (__mmask16)take,
            _mm512_castsi512_si128(x), _mm512_castsi512_si128(idx)));
}

/* How an output vector is stored; chosen per vector, outside the loop over
 * points. */
typedef enum { STORE_LANES, STORE_WHOLE, STORE_STREAM } store_mode_t;

/* The lanes of `store`, a whole register, or a whole register streamed
 * where aligned. */
static inline __attribute__((always_inline)) void
store_vector(size_t esize, store_mode_t mode, char *to, __m512i acc,
             __mmask64 store) {
    if (esize == 1) {
        const __m128i x = _mm512_castsi512_si128(acc);
        if (mode == STORE_LANES)
            _mm_mask_storeu_epi8(to, (__mmask16)store, x);
        else if (mode == STORE_STREAM && aligned(to, 16))
            _mm_stream_si128((__m128i *)to, x);
        else
            _mm_storeu_si128((__m128i *)to, x);
    } else if (mode == STORE_LANES) {
        if (esize == 4)
            _mm512_mask_storeu_epi32(to, (__mmask16)store, acc);
        else
            _mm512_mask_storeu_epi16(to, (__mmask32)store, acc);
    } else if (mode == STORE_STREAM && aligned(to, 64)) {
        _mm512_stream_si512((void *)to, acc);
    } else {
        _mm512_storeu_si512(to, acc);
    }
}

/* Output vector `v` (entries e[0 .. n)) at every point of the span; esize,
 * mode and n are constants where inlined. */
static inline __attribute__((always_inline)) void
points(const permute_span_t *sp, size_t esize, store_mode_t mode,
       const permute_entry_t *e, int n, tsr_dim_t v, uint64_t store) {
    __m512i idx[PERMUTE_MAX_ENTRIES];
    __mmask64 take[PERMUTE_MAX_ENTRIES], load[PERMUTE_MAX_ENTRIES];
    for (int k = 0; k < n; k++) {
        idx[k] = load_control(esize, e[k].idx);
        take[k] = e[k].take;
        load[k] = e[k].load;
    }
    for (tsr_dim_t o = sp->o0; o < sp->o1; o++)
        for (tsr_dim_t s = sp->s0; s < sp->s1; s++) {
            const char *from = sp->in + o * sp->outer_bytes + s * sp->vec_bytes;
            char *to = sp->out + o * sp->outer_bytes +
                       v * sp->vec_stride_bytes + s * sp->vec_bytes;
            __m512i acc = permute_zero(
                    esize, take[0], idx[0],
                    load_lanes(esize, load[0], from + e[0].in_off * esize));
            for (int k = 1; k < n; k++)
                acc = permute_merge(
                        esize, acc, take[k], idx[k],
                        load_lanes(esize, load[k], from + e[k].in_off * esize));
            store_vector(esize, mode, to, acc, store);
        }
}

/* One output vector with its store mode and entry count made constants. */
static inline __attribute__((always_inline)) void
vector_n(const permute_span_t *sp, size_t esize, const permute_entry_t *e,
         int n, tsr_dim_t v, uint64_t store) {
    if (!sp->full)
        points(sp, esize, STORE_LANES, e, n, v, store);
    else if (sp->stream)
        points(sp, esize, STORE_STREAM, e, n, v, store);
    else
        points(sp, esize, STORE_WHOLE, e, n, v, store);
}

static inline __attribute__((always_inline)) void
span(const permute_plan_t *p, size_t esize, permute_span_t *sp) {
    const uint64_t all =
            p->lanes == 64 ? ~(uint64_t)0 : ((uint64_t)1 << p->lanes) - 1;
    /* Whole registers: 64 bytes, or the 16 of pshufb. */
    const int whole = sp->vec_bytes == (esize == 1 ? 16u : 64u);
    for (tsr_dim_t v = 0; v < p->nvec; v++) {
        const permute_vector_t *vec = &p->vectors[v];
        const permute_entry_t *e = &p->entries[vec->first];
        sp->full = whole && vec->store == all;
        switch (vec->count) {
        case 1:
            vector_n(sp, esize, e, 1, v, vec->store);
            break;
        case 2:
            vector_n(sp, esize, e, 2, v, vec->store);
            break;
        case 3:
            vector_n(sp, esize, e, 3, v, vec->store);
            break;
        case 4:
            vector_n(sp, esize, e, 4, v, vec->store);
            break;
        case 5:
            vector_n(sp, esize, e, 5, v, vec->store);
            break;
        case 6:
            vector_n(sp, esize, e, 6, v, vec->store);
            break;
        case 7:
            vector_n(sp, esize, e, 7, v, vec->store);
            break;
        default:
            vector_n(sp, esize, e, 8, v, vec->store);
            break;
        }
    }
}

static void items(const permute_plan_t *p, size_t esize, const char *in,
                  char *out, tsr_dim_t begin, tsr_dim_t end) {
    permute_span_t sp = {
            .in = in,
            .out = out,
            .outer_bytes = (size_t)p->outer_stride * esize,
            .vec_bytes = (size_t)p->lanes * esize,
            .vec_stride_bytes = (size_t)p->vec_stride * esize,
            .stream = p->stream,
    };
    for (tsr_dim_t item = begin; item < end; item++) {
        sp.o0 = item / p->tiles * p->outer_per_item;
        sp.s0 = item % p->tiles * p->tile;
        sp.o1 = TSR_MIN(p->outer, sp.o0 + p->outer_per_item);
        sp.s1 = TSR_MIN(p->points, sp.s0 + p->tile);
        span(p, esize, &sp);
    }
}

void permute_items_avx512(const permute_plan_t *p, const char *in, char *out,
                          tsr_dim_t begin, tsr_dim_t end) {
    switch (p->esize) {
    case 4:
        items(p, 4, in, out, begin, end);
        break;
    case 2:
        items(p, 2, in, out, begin, end);
        break;
    default:
        items(p, 1, in, out, begin, end);
        break;
    }
    if (p->stream)
        _mm_sfence();
}
