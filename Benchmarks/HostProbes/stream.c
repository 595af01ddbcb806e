// Read bandwidth over a buffer of KIB KiB, read from start to end again and again for SECONDS
// seconds (so the hardware prefetchers follow): GB/s. x86-64 with AVX2.
//   cc -O3 -mavx2 stream.c -o stream && taskset -c 0 ./stream 8192 1
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include "clock.h"

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: stream KIB SECONDS\n"); return 64; }
    size_t kib = atol(argv[1]), n = kib * 1024 / sizeof(float);
    double seconds = atof(argv[2]);
    float *buffer = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64);
    for (size_t i = 0; i < n; i++) buffer[i] = 1e-6f * (i % 7);
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    double start = now(), bytes = 0;
    while (now() - start < seconds) {
        for (size_t i = 0; i + 32 <= n; i += 32) {
            s0 = _mm256_add_ps(s0, _mm256_load_ps(buffer + i));
            s1 = _mm256_add_ps(s1, _mm256_load_ps(buffer + i + 8));
            s2 = _mm256_add_ps(s2, _mm256_load_ps(buffer + i + 16));
            s3 = _mm256_add_ps(s3, _mm256_load_ps(buffer + i + 24));
        }
        bytes += n * sizeof(float);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    printf("%zu KiB: %.1f GB/s\n", kib, bytes / (now() - start) / 1e9);
    return lanes[0] == 12345 ? 1 : 0;
}
