// libjpeg-turbo's libjpeg API (apt: libjpeg62-turbo-dev), used by CImageCodecs to decode JPEG.
#include <stdio.h>
#include <jpeglib.h>
