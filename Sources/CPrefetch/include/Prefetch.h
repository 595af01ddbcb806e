// Software prefetch, which Swift has no spelling for: the kernels ask for cache lines they will
// read soon where the hardware prefetchers cannot guess them (rows of a matrix far apart).
#pragma once

/// Brings the cache line holding `address` towards the core, for reading (into every level).
static inline __attribute__((always_inline)) void swiftyolo_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
