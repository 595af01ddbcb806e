// JPEG decode and encode through libjpeg(-turbo) with an error manager that never lets the library exit().
#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char *err;
    int code;
    int finishing;  // a missing EOI after all scanlines were read is tolerated, like libjpeg does
    int max_scans;  // progressive scans allowed: each one is a pass over the whole image
} jpeg_context;

static void fail(j_common_ptr cinfo, int code) {
    jpeg_context *ctx = (jpeg_context *)cinfo->err;
    if (ctx->code == SY_OK) {
        char message[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, message);
        ctx->code = code;
        snprintf(ctx->err, SY_ERROR_CAPACITY, "%s", message);
    }
    longjmp(ctx->jump, 1);
}

static void on_error_exit(j_common_ptr cinfo) {
    // What this libjpeg cannot decode (12-bit samples, an unbuilt coding) is not supported, not corrupt.
    const int code = cinfo->err->msg_code;
    fail(cinfo, code == JERR_BAD_PRECISION || code == JERR_NOT_COMPILED || code == JERR_CONVERSION_NOTIMPL
                    ? SY_ERR_UNSUPPORTED : SY_ERR_CORRUPT);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    jpeg_context *ctx = (jpeg_context *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        // The data ran out: libjpeg would fill the rest of the image with gray and carry on.
        if (cinfo->err->msg_code == JWRN_JPEG_EOF && !ctx->finishing) fail(cinfo, SY_ERR_TRUNCATED);
    }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }  // never print to stderr

static void on_progress(j_common_ptr cinfo) {
    if (cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        jpeg_context *ctx = (jpeg_context *)cinfo->err;
        if (d->input_scan_number > ctx->max_scans) {
            if (ctx->code == SY_OK) {
                ctx->code = SY_ERR_UNSUPPORTED;
                snprintf(ctx->err, SY_ERROR_CAPACITY, "more than %d progressive scans (the decoder's maxProgressiveScans limit)",
                         ctx->max_scans);
            }
            longjmp(ctx->jump, 1);
        }
    }
}

static void setup(struct jpeg_decompress_struct *cinfo, jpeg_context *ctx, char *err) {
    memset(ctx, 0, sizeof *ctx);
    ctx->err = err;
    ctx->max_scans = 1000;
    err[0] = 0;
    cinfo->err = jpeg_std_error(&ctx->pub);
    ctx->pub.error_exit = on_error_exit;
    ctx->pub.emit_message = on_emit_message;
    ctx->pub.output_message = on_output_message;
    ctx->progress.progress_monitor = on_progress;
}

int sy_jpeg_read_info(const uint8_t *data, size_t size, sy_image_info *info, char *err) {
    struct jpeg_decompress_struct cinfo;
    jpeg_context ctx;
    setup(&cinfo, &ctx, err);
    if (setjmp(ctx.jump) != 0) {
        jpeg_destroy_decompress(&cinfo);
        return ctx.code;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.progress = &ctx.progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    info->width = (int32_t)cinfo.image_width;
    info->height = (int32_t)cinfo.image_height;
    info->bit_depth = cinfo.data_precision;
    info->color_type = (int32_t)cinfo.jpeg_color_space;
    info->components = cinfo.num_components;
    info->interlaced = cinfo.progressive_mode ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return SY_OK;
}

/// One row of CMYK as OpenCV's `icvCvt_CMYK2BGR_8u_C4C3R` turns it into colour (the inverted CMYK
/// that Adobe's applications write): each of C, M, Y becomes `k - ((255 - x) * k >> 8)`, then R, G, B.
static void cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, int32_t width) {
    for (int32_t i = 0; i < width; i++, cmyk += 4, rgb += 3) {
        const int k = cmyk[3];
        for (int c = 0; c < 3; c++) rgb[c] = (uint8_t)(k - (((255 - cmyk[c]) * k) >> 8));
    }
}

int sy_jpeg_decode_rgb8(const uint8_t *data, size_t size, int32_t width, int32_t height, int32_t max_scans,
                        uint8_t *out, size_t out_size, char *err) {
    struct jpeg_decompress_struct cinfo;
    jpeg_context ctx;
    setup(&cinfo, &ctx, err);
    ctx.max_scans = max_scans;
    if (width <= 0 || height <= 0 || out_size / 3 / (size_t)width < (size_t)height) {
        snprintf(err, SY_ERROR_CAPACITY, "output buffer too small");
        return SY_ERR_ARGUMENT;
    }
    uint8_t *volatile cmyk_row = NULL;  // one CMYK row, for four-component JPEGs
    if (setjmp(ctx.jump) != 0) {
        jpeg_destroy_decompress(&cinfo);
        free(cmyk_row);
        return ctx.code;
    }
    jpeg_create_decompress(&cinfo);
    cinfo.progress = &ctx.progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if ((int32_t)cinfo.image_width != width || (int32_t)cinfo.image_height != height) {
        ctx.code = SY_ERR_ARGUMENT;
        snprintf(err, SY_ERROR_CAPACITY, "the header changed between reads");
        longjmp(ctx.jump, 1);
    }
    if (cinfo.num_components != 1 && cinfo.num_components != 3 && cinfo.num_components != 4) {
        ctx.code = SY_ERR_UNSUPPORTED;
        snprintf(err, SY_ERROR_CAPACITY, "JPEG with %d components is not supported", cinfo.num_components);
        longjmp(ctx.jump, 1);
    }
    // Gray is replicated by libjpeg; defaults otherwise (as OpenCV). Four components (CMYK, or YCCK,
    // which libjpeg turns into CMYK) are read as CMYK and converted as OpenCV's imread converts them.
    const int cmyk = cinfo.num_components == 4;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != (cmyk ? 4 : 3) || (int32_t)cinfo.output_width != width ||
        (int32_t)cinfo.output_height != height) {
        ctx.code = SY_ERR_UNSUPPORTED;
        snprintf(err, SY_ERROR_CAPACITY, "libjpeg did not produce %s at the header's size", cmyk ? "CMYK" : "RGB");
        longjmp(ctx.jump, 1);
    }
    if (cmyk && (cmyk_row = malloc((size_t)width * 4)) == NULL) {
        ctx.code = SY_ERR_ARGUMENT;
        snprintf(err, SY_ERROR_CAPACITY, "out of memory for a row of %d pixels", width);
        longjmp(ctx.jump, 1);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *rgb = out + (size_t)cinfo.output_scanline * (size_t)width * 3;
        JSAMPROW row = cmyk ? cmyk_row : rgb;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
            ctx.code = SY_ERR_TRUNCATED;
            snprintf(err, SY_ERROR_CAPACITY, "the data ends before the image does");
            longjmp(ctx.jump, 1);
        }
        if (cmyk) cmyk_to_rgb(cmyk_row, rgb, width);
    }
    ctx.finishing = 1;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_row);
    return SY_OK;
}

int sy_jpeg_write_rgb8(int descriptor, const uint8_t *pixels, int32_t width, int32_t height, int32_t quality, char *err) {
    struct jpeg_compress_struct cinfo;
    jpeg_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.err = err;
    err[0] = 0;
    if (width <= 0 || height <= 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION || quality < 1 || quality > 100) {
        snprintf(err, SY_ERROR_CAPACITY, "cannot write a %dx%d JPEG at quality %d", width, height, quality);
        return SY_ERR_ARGUMENT;
    }
    cinfo.err = jpeg_std_error(&ctx.pub);
    ctx.pub.error_exit = on_error_exit;
    ctx.pub.emit_message = on_emit_message;
    ctx.pub.output_message = on_output_message;
    // The whole file is made in memory, then written with checked write(2) calls.
    unsigned char *volatile encoded = NULL;
    unsigned long encoded_size = 0;
    if (setjmp(ctx.jump) != 0) {
        jpeg_destroy_compress(&cinfo);
        free(encoded);
        if (ctx.code == SY_ERR_CORRUPT) ctx.code = SY_ERR_IO;
        return ctx.code;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&encoded, &encoded_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * (size_t)width * 3);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    size_t written = 0;
    while (written < encoded_size) {
        ssize_t n = write(descriptor, encoded + written, encoded_size - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            snprintf(err, SY_ERROR_CAPACITY, "writing failed: %s", n < 0 ? strerror(errno) : "no progress");
            free(encoded);
            return SY_ERR_IO;
        }
        written += (size_t)n;
    }
    free(encoded);
    return SY_OK;
}
