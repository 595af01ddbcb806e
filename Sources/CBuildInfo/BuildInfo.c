#include "BuildInfo.h"

// Defined only by the object that `make release` and `make static` link in (the Makefile's
// build-info target); weak, so that every other build links without it and reads "unknown".
extern const char sy_build_commit_name[] __attribute__((weak));

const char *sy_build_commit(void) { return sy_build_commit_name ? sy_build_commit_name : "unknown"; }
