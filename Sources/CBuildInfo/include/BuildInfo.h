// What a build knows about itself: the commit it was built from, when the build said so (`make
// release` and `make static` link in an object naming it, so the compiled modules stay the same).
#pragma once

/// The commit of the source tree, or "unknown" for a build that did not say (a plain `swift build`).
const char *sy_build_commit(void);
