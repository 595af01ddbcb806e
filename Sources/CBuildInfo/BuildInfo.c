#include "BuildInfo.h"

#ifndef SWIFTYOLO_COMMIT
#define SWIFTYOLO_COMMIT "unknown"
#endif

const char *sy_build_commit(void) { return SWIFTYOLO_COMMIT; }
