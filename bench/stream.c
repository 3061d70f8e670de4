/*
 * The roofline: the cheapest pass that touches every byte a cull reads, a
 * bitwise OR over the 15 box arrays (60 B per box). Integer OR is exact
 * and associative, so it vectorises without -ffast-math; the result goes
 * to a volatile sink so that the loop cannot be removed. On x86 the widest
 * native loop is used (AVX2 in stream_avx2.c when the CPU has it).
 */
#include <string.h>

#include "stream.h"
#include "timing.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The 15 arrays as one list (center, axes, extents). */
static void arrays_of(const satc_boxes *b, const float *p[15])
{
    int k = 0;
    for (int i = 0; i < 3; i++)
        p[k++] = b->center[i];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            p[k++] = b->axis[i][c];
    for (int i = 0; i < 3; i++)
        p[k++] = b->extent[i];
}

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static uint32_t stream_tail(const float *const p[15], size_t lo, size_t hi)
{
    uint32_t acc = 0;
    for (size_t i = lo; i < hi; i++)
        for (int k = 0; k < 15; k++)
            acc |= bits_of(p[k][i]);
    return acc;
}

#if defined(__SSE2__)
static uint32_t stream_sse2(const satc_boxes *b, size_t first, size_t n)
{
    const float *p[15];
    arrays_of(b, p);
    size_t i = first, end = first + n;
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0;
    for (; i + 4 <= end; i += 4) {
        /* Three accumulators: the ORs of one step do not wait on each other. */
        for (int k = 0; k < 15; k += 3) {
            a0 = _mm_or_si128(a0, _mm_loadu_si128((const __m128i *)(p[k] + i)));
            a1 = _mm_or_si128(a1, _mm_loadu_si128((const __m128i *)(p[k + 1] + i)));
            a2 = _mm_or_si128(a2, _mm_loadu_si128((const __m128i *)(p[k + 2] + i)));
        }
    }
    __m128i a = _mm_or_si128(a0, _mm_or_si128(a1, a2));
    uint32_t w[4];
    _mm_storeu_si128((__m128i *)w, a);
    return w[0] | w[1] | w[2] | w[3] | stream_tail(p, i, end);
}
#else
static uint32_t stream_c(const satc_boxes *b, size_t first, size_t n)
{
    const float *p[15];
    arrays_of(b, p);
    return stream_tail(p, first, first + n);
}
#endif

static int use_avx2(void)
{
#if defined(SATC_BENCH_STREAM_AVX2)
    static int v = -1;
    if (v < 0)
        v = (satc_isa_native() & SATC_ISA_AVX2) != 0;
    return v;
#else
    return 0;
#endif
}

uint32_t bench_stream(const satc_boxes *b, size_t first, size_t n)
{
#if defined(SATC_BENCH_STREAM_AVX2)
    if (use_avx2())
        return bench_stream_avx2(b, first, n);
#endif
#if defined(__SSE2__)
    return stream_sse2(b, first, n);
#else
    return stream_c(b, first, n);
#endif
}

/* The roofline of one form: an OR over `bytes` contiguous bytes (a
 * multiple of 4), the widest native loop as above. */
uint32_t bench_read(const void *p, size_t bytes)
{
#if defined(SATC_BENCH_STREAM_AVX2)
    if (use_avx2())
        return bench_read_avx2(p, bytes);
#endif
    const uint32_t *w = p;
    size_t nw = bytes / 4, i = 0;
    uint32_t acc = 0;
#if defined(__SSE2__)
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
    for (; i + 16 <= nw; i += 16) {
        a0 = _mm_or_si128(a0, _mm_loadu_si128((const __m128i *)(w + i)));
        a1 = _mm_or_si128(a1, _mm_loadu_si128((const __m128i *)(w + i + 4)));
        a2 = _mm_or_si128(a2, _mm_loadu_si128((const __m128i *)(w + i + 8)));
        a3 = _mm_or_si128(a3, _mm_loadu_si128((const __m128i *)(w + i + 12)));
    }
    uint32_t t[4];
    _mm_storeu_si128((__m128i *)t, _mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3)));
    acc = t[0] | t[1] | t[2] | t[3];
#endif
    for (; i < nw; i++)
        acc |= w[i];
    return acc;
}

const char *bench_stream_name(void)
{
    if (use_avx2())
        return "avx2 (32-byte loads)";
#if defined(__SSE2__)
    return "sse2 (16-byte loads)";
#else
    return "plain C";
#endif
}
