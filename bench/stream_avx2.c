/* The roofline loop with 32-byte loads; built with -mavx2 and called only
 * when satc_isa_native() reports AVX2 (see stream.c). */
#ifndef __AVX2__
#error "stream_avx2.c must be compiled with -mavx2"
#endif
#include <immintrin.h>
#include <string.h>

#include "stream.h"
#include "timing.h"

uint32_t bench_stream_avx2(const satc_boxes *b, size_t first, size_t n)
{
    const float *p[15];
    int k = 0;
    for (int i = 0; i < 3; i++)
        p[k++] = b->center[i];
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            p[k++] = b->axis[i][c];
    for (int i = 0; i < 3; i++)
        p[k++] = b->extent[i];

    size_t i = first, end = first + n;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0;
    for (; i + 8 <= end; i += 8) {
        for (int j = 0; j < 15; j += 3) {
            a0 = _mm256_or_si256(a0, _mm256_loadu_si256((const __m256i *)(p[j] + i)));
            a1 = _mm256_or_si256(a1, _mm256_loadu_si256((const __m256i *)(p[j + 1] + i)));
            a2 = _mm256_or_si256(a2, _mm256_loadu_si256((const __m256i *)(p[j + 2] + i)));
        }
    }
    __m256i a = _mm256_or_si256(a0, _mm256_or_si256(a1, a2));
    uint32_t w[8], acc = 0;
    _mm256_storeu_si256((__m256i *)w, a);
    for (int j = 0; j < 8; j++)
        acc |= w[j];
    for (; i < end; i++) {
        for (int j = 0; j < 15; j++) {
            uint32_t u;
            memcpy(&u, p[j] + i, sizeof u);
            acc |= u;
        }
    }
    return acc;
}

uint32_t bench_read_avx2(const void *p, size_t bytes)
{
    const uint32_t *w = p;
    size_t nw = bytes / 4, i = 0;
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (; i + 32 <= nw; i += 32) {
        a0 = _mm256_or_si256(a0, _mm256_loadu_si256((const __m256i *)(w + i)));
        a1 = _mm256_or_si256(a1, _mm256_loadu_si256((const __m256i *)(w + i + 8)));
        a2 = _mm256_or_si256(a2, _mm256_loadu_si256((const __m256i *)(w + i + 16)));
        a3 = _mm256_or_si256(a3, _mm256_loadu_si256((const __m256i *)(w + i + 24)));
    }
    uint32_t t[8], acc = 0;
    _mm256_storeu_si256((__m256i *)t, _mm256_or_si256(_mm256_or_si256(a0, a1), _mm256_or_si256(a2, a3)));
    for (int j = 0; j < 8; j++)
        acc |= t[j];
    for (; i < nw; i++)
        acc |= w[i];
    return acc;
}
