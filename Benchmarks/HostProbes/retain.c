// How long the caches keep what a core wrote: fills a buffer of KIB KiB (a layer writing its
// output), works for WAIT_MS milliseconds on 128 KiB of its own (in the second-level cache), then
// reads the buffer back (the next layer), REPEATS times: the read's GB/s. Read at once, a buffer
// past the L2 comes from the L3; as the wait grows, from memory where other guests' traffic
// through the shared L3 evicts it. x86-64 with AVX2.
//   cc -O3 -mavx2 retain.c -o retain && taskset -c 0 ./retain 3072 2 60
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"

static float sum(const float *buffer, size_t n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (size_t i = 0; i + 32 <= n; i += 32) {
        s0 = _mm256_add_ps(s0, _mm256_load_ps(buffer + i));
        s1 = _mm256_add_ps(s1, _mm256_load_ps(buffer + i + 8));
        s2 = _mm256_add_ps(s2, _mm256_load_ps(buffer + i + 16));
        s3 = _mm256_add_ps(s3, _mm256_load_ps(buffer + i + 24));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    return lanes[0];
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: retain KIB WAIT_MS REPEATS\n"); return 64; }
    size_t kib = atol(argv[1]), n = kib * 1024 / sizeof(float), otherFloats = 32 * 1024;
    double wait = atof(argv[2]) * 1e-3, reading = 0;
    int repeats = atoi(argv[3]);
    float *buffer = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64), *other = aligned_alloc(64, otherFloats * sizeof(float));
    memset(other, 0, otherFloats * sizeof(float));
    float sink = 0;
    for (int r = 0; r < repeats; r++) {
        for (size_t i = 0; i < n; i++) buffer[i] = (float)(i & 7);
        double waited = now();
        while (now() - waited < wait) sink += sum(other, otherFloats);
        double start = now();
        sink += sum(buffer, n);
        reading += now() - start;
    }
    printf("%zu KiB read %.2f ms after it was written: %.1f GB/s\n", kib, wait * 1e3, n * sizeof(float) * (double)repeats / reading / 1e9);
    return sink == 1 ? 1 : 0;  // keeps the sums live
}
