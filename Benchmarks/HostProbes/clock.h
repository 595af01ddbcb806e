// The probes' clock: seconds on the monotonic clock.
#ifndef HOST_PROBES_CLOCK_H
#define HOST_PROBES_CLOCK_H
#include <time.h>

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
#endif
