// PNG decode/encode through libpng with an error handler that jumps back here, never further.
#include "CImageCodecs.h"

#include <errno.h>
#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    jmp_buf jump;
    char *err;
    int code;
    const uint8_t *data;  // read source (decode only)
    size_t size;
    size_t pos;
    FILE *file;  // write destination (encode only)
} png_context;

static void set_error(png_context *ctx, int code, const char *message) {
    if (ctx->code == SY_OK) {
        ctx->code = code;
        snprintf(ctx->err, SY_ERROR_CAPACITY, "%s", message);
    }
}

static void on_error(png_structp png, png_const_charp message) {
    png_context *ctx = (png_context *)png_get_error_ptr(png);
    set_error(ctx, SY_ERR_CORRUPT, message);
    longjmp(ctx->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;  // benign problems (bad ancillary CRC, unknown chunk data): OpenCV ignores them too
}

static void read_memory(png_structp png, png_bytep out, size_t count) {
    png_context *ctx = (png_context *)png_get_io_ptr(png);
    if (count > ctx->size - ctx->pos) {
        set_error(ctx, SY_ERR_TRUNCATED, "the data ends before the image does");
        longjmp(ctx->jump, 1);
    }
    memcpy(out, ctx->data + ctx->pos, count);
    ctx->pos += count;
}

/// The limits every read applies: YOLOImage checks the image size itself; ancillary chunks (text,
/// ICC profiles, ...) may neither allocate nor inflate more than `max_chunk_bytes`, at most 1000 of
/// them are kept, and the ones decoding never uses are skipped unread. Without the explicit chunk
/// limit a 40-byte PNG declaring a 1.6 GB tEXt chunk had libpng allocate 1.6 GB (found by fuzzing).
static void apply_limits(png_structp png, size_t max_chunk_bytes) {
    static const png_byte ignored[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0,
                                       'i', 'C', 'C', 'P', 0, 's', 'P', 'L', 'T', 0, 'e', 'X', 'I', 'f', 0};
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(png, max_chunk_bytes);
    png_set_chunk_cache_max(png, 1000);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored, (int)(sizeof ignored / 5));
}

int sy_png_read_info(const uint8_t *data, size_t size, size_t max_chunk_bytes, sy_image_info *info, char *err) {
    png_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.err = err;
    ctx.data = data;
    ctx.size = size;
    err[0] = 0;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(err, SY_ERROR_CAPACITY, "not a PNG signature");
        return SY_ERR_CORRUPT;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (png == NULL) {
        snprintf(err, SY_ERROR_CAPACITY, "out of memory");
        return SY_ERR_CORRUPT;
    }
    png_infop pinfo = png_create_info_struct(png);
    if (pinfo == NULL || setjmp(ctx.jump) != 0) {
        if (ctx.code == SY_OK) set_error(&ctx, SY_ERR_CORRUPT, "out of memory");
        png_destroy_read_struct(&png, pinfo ? &pinfo : NULL, NULL);
        return ctx.code;
    }
    png_set_read_fn(png, &ctx, read_memory);
    apply_limits(png, max_chunk_bytes);
    png_read_info(png, pinfo);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, pinfo, &width, &height, &depth, &color_type, &interlace, NULL, NULL);
    info->width = (int32_t)width;
    info->height = (int32_t)height;
    info->bit_depth = depth;
    info->color_type = color_type;
    info->components = png_get_channels(png, pinfo);
    info->interlaced = interlace != PNG_INTERLACE_NONE;
    png_destroy_read_struct(&png, &pinfo, NULL);
    return SY_OK;
}

int sy_png_decode_rgb8(const uint8_t *data, size_t size, size_t max_chunk_bytes, int32_t width, int32_t height,
                       uint8_t *out, size_t out_size, char *err) {
    png_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.err = err;
    ctx.data = data;
    ctx.size = size;
    err[0] = 0;
    if (width <= 0 || height <= 0 || out_size / 3 / (size_t)width < (size_t)height) {
        snprintf(err, SY_ERROR_CAPACITY, "output buffer too small");
        return SY_ERR_ARGUMENT;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (png == NULL) {
        snprintf(err, SY_ERROR_CAPACITY, "out of memory");
        return SY_ERR_CORRUPT;
    }
    png_infop pinfo = png_create_info_struct(png);
    if (pinfo == NULL || setjmp(ctx.jump) != 0) {
        if (ctx.code == SY_OK) set_error(&ctx, SY_ERR_CORRUPT, "out of memory");
        png_destroy_read_struct(&png, pinfo ? &pinfo : NULL, NULL);
        return ctx.code;
    }
    png_set_read_fn(png, &ctx, read_memory);
    apply_limits(png, max_chunk_bytes);
    png_read_info(png, pinfo);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, pinfo, &w, &h, &depth, &color_type, &interlace, NULL, NULL);
    if ((int32_t)w != width || (int32_t)h != height) {
        set_error(&ctx, SY_ERR_ARGUMENT, "the header changed between reads");
        longjmp(ctx.jump, 1);
    }
    // The same transforms as OpenCV's PngDecoder for a 3-channel 8-bit destination.
    if (depth == 16) png_set_strip_16(png);  // high byte, i.e. v >> 8
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    png_set_strip_alpha(png);  // alpha and tRNS are dropped, not composited
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, pinfo);
    if (png_get_channels(png, pinfo) != 3 || png_get_bit_depth(png, pinfo) != 8 ||
        png_get_rowbytes(png, pinfo) != (size_t)width * 3) {
        set_error(&ctx, SY_ERR_UNSUPPORTED, "libpng did not produce 8-bit RGB for this colour type");
        longjmp(ctx.jump, 1);
    }
    // Row by row, into the caller's buffer: no allocation proportional to the height (png_read_image
    // would need an array of `height` row pointers). Each Adam7 pass fills in its pixels of every row.
    for (int pass = 0; pass < passes; pass++) {
        for (int32_t y = 0; y < height; y++) png_read_row(png, out + (size_t)y * (size_t)width * 3, NULL);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &pinfo, NULL);
    return SY_OK;
}

static void write_file(png_structp png, png_bytep data, size_t count) {
    png_context *ctx = (png_context *)png_get_io_ptr(png);
    if (fwrite(data, 1, count, ctx->file) != count) {
        char message[SY_ERROR_CAPACITY];
        snprintf(message, sizeof message, "writing failed: %s", strerror(errno));  // ENOSPC, EFBIG, EIO, ...
        set_error(ctx, SY_ERR_IO, message);
        longjmp(ctx->jump, 1);
    }
}

static void flush_file(png_structp png) {
    png_context *ctx = (png_context *)png_get_io_ptr(png);
    fflush(ctx->file);
}

int sy_png_write_rgb8(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, char *err) {
    return sy_png_write(descriptor, pixels, width, height, 3, err);
}

int sy_png_write(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, int32_t channels, char *err) {
    png_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.err = err;
    err[0] = 0;
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3 && channels != 4)) {
        snprintf(err, SY_ERROR_CAPACITY, "invalid dimensions %dx%d or channels %d", width, height, channels);
        return SY_ERR_ARGUMENT;
    }
    int copy = dup(descriptor);  // the caller keeps `descriptor`; fclose closes the copy
    FILE *volatile file = copy < 0 ? NULL : fdopen(copy, "wb");
    if (file == NULL) {
        snprintf(err, SY_ERROR_CAPACITY, "cannot write the file: %s", strerror(errno));
        if (copy >= 0) close(copy);
        return SY_ERR_IO;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    png_infop pinfo = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || pinfo == NULL || setjmp(ctx.jump) != 0) {
        if (ctx.code == SY_OK) set_error(&ctx, SY_ERR_IO, "out of memory");
        if (ctx.code == SY_ERR_CORRUPT) ctx.code = SY_ERR_IO;
        png_destroy_write_struct(png ? &png : NULL, pinfo ? &pinfo : NULL);
        fclose(file);
        return ctx.code;
    }
    ctx.file = file;
    png_set_write_fn(png, &ctx, write_file, flush_file);
    int color_type = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(png, pinfo, (png_uint_32)width, (png_uint_32)height, 8, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // Annotated pictures are for looking at: the fastest zlib settings that still compress (level 1,
    // run-length matches, the Sub filter). `--save-format jpg` is the fast choice.
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_strategy(png, Z_RLE);
    png_write_info(png, pinfo);
    for (int32_t y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * (size_t)width * (size_t)channels);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &pinfo);
    int failed = fflush(file) != 0 || ferror(file);
    int saved = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        snprintf(err, SY_ERROR_CAPACITY, "writing failed: %s", strerror(saved));
        return SY_ERR_IO;
    }
    return SY_OK;
}
