// setjmp-safe wrappers around libpng and libjpeg(-turbo) for YOLOImage.
//
// libpng and libjpeg report fatal errors by longjmp (or, with libjpeg's default error manager,
// by calling exit()). Every function here installs its own error handlers, catches the jump
// inside C, and returns a status code with a NUL-terminated message in `err` instead, so no
// jump ever crosses a Swift frame and the process never exits.
#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every function.
enum {
    SY_OK = 0,
    SY_ERR_CORRUPT = 1,      ///< the codec rejected the data
    SY_ERR_TRUNCATED = 2,    ///< the data ended before the image did
    SY_ERR_UNSUPPORTED = 3,  ///< valid but not decodable here (e.g. a 12-bit JPEG)
    SY_ERR_ARGUMENT = 4,     ///< caller error (buffer too small, dimensions changed)
    SY_ERR_IO = 5            ///< writing failed
};

/// Size of the `err` buffers callers pass in.
#define SY_ERROR_CAPACITY 200

/// What the header says, read without decoding any pixel.
typedef struct {
    int32_t width;
    int32_t height;
    int32_t bit_depth;    ///< bits per sample (PNG 1..16; JPEG data precision)
    int32_t color_type;   ///< PNG colour type; JPEG J_COLOR_SPACE of the file
    int32_t components;   ///< samples per pixel stored in the file
    int32_t interlaced;   ///< PNG Adam7, or JPEG progressive
} sy_image_info;

/// Reads the PNG header (signature and IHDR, and the chunks before the image data) from memory.
/// No ancillary chunk may allocate or inflate more than `max_chunk_bytes`.
int sy_png_read_info(const uint8_t *data, size_t size, size_t max_chunk_bytes, sy_image_info *info, char *err);

/// Decodes a PNG to interleaved RGB8 the way OpenCV's imread(IMREAD_COLOR) does: 16-bit samples
/// keep their high byte, gray is replicated, palettes are expanded, alpha and tRNS are dropped,
/// gamma is not applied. `out` must hold width*height*3 bytes of the header's dimensions.
int sy_png_decode_rgb8(const uint8_t *data, size_t size, size_t max_chunk_bytes, int32_t width, int32_t height,
                       uint8_t *out, size_t out_size, char *err);

/// Writes interleaved RGB8 as an 8-bit RGB PNG to the open file `descriptor`, which stays open (the
/// caller syncs it, closes it and makes the write atomic).
int sy_png_write_rgb8(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, char *err);
/// Writes 8-bit gray (channels 1), RGB (3) or RGBA (4) pixels as a PNG, the same way.
int sy_png_write(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, int32_t channels, char *err);

/// Writes interleaved RGB8 as a baseline JPEG (4:2:0, `quality` 1...100) to the open file `descriptor`,
/// which stays open. The file is encoded in memory, then written; a failed write is SY_ERR_IO.
int sy_jpeg_write_rgb8(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, int32_t quality, char *err);

/// Reads the JPEG header (up to the first SOF) from memory.
int sy_jpeg_read_info(const uint8_t *data, size_t size, sy_image_info *info, char *err);

/// Decodes a JPEG to interleaved RGB8 (libjpeg defaults: ISLOW IDCT, fancy upsampling), as
/// OpenCV's imread does. Gray is replicated; CMYK and YCCK are converted as OpenCV converts them
/// (`k - ((255 - x) * k >> 8)` per channel, Adobe's inverted CMYK). A JPEG that ends early is an
/// error (libjpeg itself would only warn and fill the rest with gray). A progressive JPEG with more
/// than `max_scans` scans is refused (each scan is a pass over the whole image).
int sy_jpeg_decode_rgb8(const uint8_t *data, size_t size, int32_t width, int32_t height, int32_t max_scans,
                        uint8_t *out, size_t out_size, char *err);

#ifdef __cplusplus
}
#endif

#endif
