// Load-to-use latency: a pointer chase through one cache line of each 64 bytes of a buffer of KIB
// KiB, in a random order, for SECONDS seconds per size: nanoseconds a load. With THP=1 in the
// environment the buffer is asked for in 2 MiB pages (madvise), to tell cache misses from
// translation misses.
//   cc -O2 chase.c -o chase && taskset -c 0 ./chase 1024 2048 4096 65536 0.2
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "clock.h"

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: chase KIB... SECONDS\n"); return 64; }
    double seconds = atof(argv[argc - 1]);
    size_t sink = 0;
    for (int a = 1; a < argc - 1; a++) {
        size_t kib = atol(argv[a]), lines = kib * 1024 / 64, huge = 2 << 20;
        size_t bytes = (lines * 64 + huge - 1) / huge * huge;
        size_t *buffer = aligned_alloc(huge, bytes), *order = malloc(lines * sizeof(size_t));
        if (getenv("THP")) madvise(buffer, bytes, MADV_HUGEPAGE);
        for (size_t i = 0; i < lines; i++) order[i] = i;
        srand(1);
        for (size_t i = lines - 1; i > 0; i--) {
            size_t j = rand() % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t i = 0; i < lines; i++) buffer[order[i] * 8] = order[(i + 1) % lines] * 8;
        size_t p = 0;
        long steps = 0;
        double start = now();
        while (now() - start < seconds) {
            for (int k = 0; k < 100000; k++) p = buffer[p];
            steps += 100000;
        }
        printf("%zu KiB %.1f ns  ", kib, (now() - start) / steps * 1e9);
        sink += p;
        free(buffer);
        free(order);
    }
    printf("\n");
    return sink == 1 ? 1 : 0;  // keeps the chase live
}
