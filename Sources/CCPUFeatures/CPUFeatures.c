#include "CPUFeatures.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

int swiftyolo_cpu_has_x86_64_v3(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("lzcnt")
        && __builtin_cpu_supports("movbe") && __builtin_cpu_supports("avx");
#else
    return 0;
#endif
}

int swiftyolo_cpu_has_x86_64_v4(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return swiftyolo_cpu_has_x86_64_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

const char *swiftyolo_cpu_brand(void) {
    static char brand[49];
#if defined(__x86_64__)
    unsigned int regs[12];
    if (brand[0] == 0 && __get_cpuid_max(0x80000000, 0) >= 0x80000004) {
        for (unsigned int i = 0; i < 3; i++) __get_cpuid(0x80000002 + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
        memcpy(brand, regs, 48);
        brand[48] = 0;
    }
#endif
    return brand;
}
