// libpng 1.6 (apt: libpng-dev), used by CImageCodecs to decode and write PNG.
#include <png.h>
