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

/* Output vector `v` (entries e[0 .. n)) at every point of the span; n is a
 * constant where inlined. One body per element size. */
static inline __attribute__((always_inline)) void
vector_4(const permute_span_t *sp, const permute_entry_t *e, int n, tsr_dim_t v,
         uint64_t store) {
    __m512i idx[PERMUTE_MAX_ENTRIES];
    __mmask16 take[PERMUTE_MAX_ENTRIES], load[PERMUTE_MAX_ENTRIES];
    for (int k = 0; k < n; k++) {
        idx[k] = _mm512_load_si512(e[k].idx);
        take[k] = (__mmask16)e[k].take;
        load[k] = (__mmask16)e[k].load;
    }
    for (tsr_dim_t o = sp->o0; o < sp->o1; o++)
        for (tsr_dim_t s = sp->s0; s < sp->s1; s++) {
            const char *from = sp->in + o * sp->outer_bytes + s * sp->vec_bytes;
            char *to = sp->out + o * sp->outer_bytes +
                       v * sp->vec_stride_bytes + s * sp->vec_bytes;
            __m512i acc = _mm512_maskz_permutexvar_epi32(
                    take[0], idx[0],
                    _mm512_maskz_loadu_epi32(load[0], from + e[0].in_off * 4));
            for (int k = 1; k < n; k++)
                acc = _mm512_mask_permutexvar_epi32(
                        acc, take[k], idx[k],
                        _mm512_maskz_loadu_epi32(load[k],
                                                 from + e[k].in_off * 4));
            if (sp->full && sp->stream && aligned(to, 64))
                _mm512_stream_si512((void *)to, acc);
            else if (sp->full)
                _mm512_storeu_si512(to, acc);
            else
                _mm512_mask_storeu_epi32(to, (__mmask16)store, acc);
        }
}

static inline __attribute__((always_inline)) void
vector_2(const permute_span_t *sp, const permute_entry_t *e, int n, tsr_dim_t v,
         uint64_t store) {
    __m512i idx[PERMUTE_MAX_ENTRIES];
    __mmask32 take[PERMUTE_MAX_ENTRIES], load[PERMUTE_MAX_ENTRIES];
    for (int k = 0; k < n; k++) {
        idx[k] = _mm512_load_si512(e[k].idx);
        take[k] = (__mmask32)e[k].take;
        load[k] = (__mmask32)e[k].load;
    }
    for (tsr_dim_t o = sp->o0; o < sp->o1; o++)
        for (tsr_dim_t s = sp->s0; s < sp->s1; s++) {
            const char *from = sp->in + o * sp->outer_bytes + s * sp->vec_bytes;
            char *to = sp->out + o * sp->outer_bytes +
                       v * sp->vec_stride_bytes + s * sp->vec_bytes;
            __m512i acc = _mm512_maskz_permutexvar_epi16(
                    take[0], idx[0],
                    _mm512_maskz_loadu_epi16(load[0], from + e[0].in_off * 2));
            for (int k = 1; k < n; k++)
                acc = _mm512_mask_permutexvar_epi16(
                        acc, take[k], idx[k],
                        _mm512_maskz_loadu_epi16(load[k],
                                                 from + e[k].in_off * 2));
            if (sp->full && sp->stream && aligned(to, 64))
                _mm512_stream_si512((void *)to, acc);
            else if (sp->full)
                _mm512_storeu_si512(to, acc);
            else
                _mm512_mask_storeu_epi16(to, (__mmask32)store, acc);
        }
}

static inline __attribute__((always_inline)) void
vector_1(const permute_span_t *sp, const permute_entry_t *e, int n, tsr_dim_t v,
         uint64_t store) {
    __m128i idx[PERMUTE_MAX_ENTRIES];
    __mmask16 take[PERMUTE_MAX_ENTRIES], load[PERMUTE_MAX_ENTRIES];
    for (int k = 0; k < n; k++) {
        idx[k] = _mm_load_si128((const __m128i *)e[k].idx);
        take[k] = (__mmask16)e[k].take;
        load[k] = (__mmask16)e[k].load;
    }
    for (tsr_dim_t o = sp->o0; o < sp->o1; o++)
        for (tsr_dim_t s = sp->s0; s < sp->s1; s++) {
            const char *from = sp->in + o * sp->outer_bytes + s * sp->vec_bytes;
            char *to = sp->out + o * sp->outer_bytes +
                       v * sp->vec_stride_bytes + s * sp->vec_bytes;
            __m128i acc = _mm_maskz_shuffle_epi8(
                    take[0], _mm_maskz_loadu_epi8(load[0], from + e[0].in_off),
                    idx[0]);
            for (int k = 1; k < n; k++)
                acc = _mm_mask_shuffle_epi8(
                        acc, take[k],
                        _mm_maskz_loadu_epi8(load[k], from + e[k].in_off),
                        idx[k]);
            if (sp->full && sp->stream && aligned(to, 16))
                _mm_stream_si128((__m128i *)to, acc);
            else if (sp->full)
                _mm_storeu_si128((__m128i *)to, acc);
            else
                _mm_mask_storeu_epi8(to, (__mmask16)store, acc);
        }
}

/* One output vector with its entry count made a constant. */
static inline __attribute__((always_inline)) void
vector_n(const permute_span_t *sp, size_t esize, const permute_entry_t *e,
         int n, tsr_dim_t v, uint64_t store) {
    if (esize == 4)
        vector_4(sp, e, n, v, store);
    else if (esize == 2)
        vector_2(sp, e, n, v, store);
    else
        vector_1(sp, e, n, v, store);
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
