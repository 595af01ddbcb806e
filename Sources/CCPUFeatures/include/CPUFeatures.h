// What the CPU this process runs on can execute, for choosing a kernel set. The compiler's
// __builtin_cpu_supports reads cpuid and checks that the operating system saves the wider
// registers (xgetbv), so a set is never chosen where its instructions would fault.
#pragma once

/// 1 if the CPU and the OS support x86-64-v3 (AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE), else 0.
int swiftyolo_cpu_has_x86_64_v3(void);

/// 1 if the CPU and the OS support x86-64-v4 (x86-64-v3 and AVX-512 F, BW, CD, DQ, VL), else 0.
int swiftyolo_cpu_has_x86_64_v4(void);

/// The CPU's brand string (`AMD EPYC 7B13`), or "" where cpuid has none (not x86-64).
const char *swiftyolo_cpu_brand(void);
