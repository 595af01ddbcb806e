// The core's fused multiply-add rate: twelve independent chains of 8-float FMAs in registers, no
// memory. Prints GFLOP/s once a second for SECONDS seconds. x86-64 with AVX2 and FMA.
//   cc -O3 -mavx2 -mfma fma.c -o fma && taskset -c 0 ./fma 3
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include "clock.h"

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 3;
    __m256 chains[12];
    for (int i = 0; i < 12; i++) chains[i] = _mm256_set1_ps(1.0f + i * 1e-3f);
    __m256 b = _mm256_set1_ps(0.9999f), c = _mm256_set1_ps(1e-4f);
    double start = now(), since = start;
    long batches = 0;
    while (now() - start < seconds) {
        for (int k = 0; k < 100000; k++)
            for (int i = 0; i < 12; i++) chains[i] = _mm256_fmadd_ps(chains[i], b, c);
        batches++;
        double t = now();
        if (t - since >= 1.0) {
            // 12 FMAs of 8 lanes, 2 FLOP each, per step.
            printf("%.1f GFLOP/s\n", batches * 100000.0 * 12 * 16 / (t - since) / 1e9);
            fflush(stdout);
            batches = 0;
            since = t;
        }
    }
    float lanes[8], sum = 0;
    for (int i = 0; i < 12; i++) { _mm256_storeu_ps(lanes, chains[i]); sum += lanes[0]; }
    return sum == 12345 ? 1 : 0;  // keeps the chains live
}
