#ifndef SWIFTYOLO_CFUZZERDRIVER_H
#define SWIFTYOLO_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// One input to the target under test; 0 when it was taken, as libFuzzer's LLVMFuzzerTestOneInput.
typedef int (*sy_fuzz_test_one_input)(const uint8_t *_Nonnull data, size_t size);

/// Runs libFuzzer on `test` with the process's arguments and returns its exit status. The fuzz
/// targets link libFuzzer without its `main` (libclang_rt.fuzzer_no_main), so that they are
/// ordinary executables, built with SwiftPM's ordinary flags rather than `--sanitize=fuzzer`.
int sy_fuzz_main(int argc, char *_Nullable *_Nonnull argv, sy_fuzz_test_one_input _Nonnull test);

#endif
