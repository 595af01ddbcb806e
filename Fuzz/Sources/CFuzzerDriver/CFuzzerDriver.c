#include "CFuzzerDriver.h"

// libFuzzer's entry point for programs with a `main` of their own (compiler-rt, FuzzerDriver.cpp).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int sy_fuzz_main(int argc, char **argv, sy_fuzz_test_one_input test) {
    return LLVMFuzzerRunDriver(&argc, &argv, test);
}
