// The module's one function is `static inline` in include/Prefetch.h; SwiftPM wants a source file.
#include "Prefetch.h"
