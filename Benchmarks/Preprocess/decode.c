// Decodes a JPEG with SwiftYOLO's own libjpeg wrapper (as `detect` does) and writes the raw RGB8
// bytes to stdout, with "WIDTH HEIGHT" on stderr: the input of preprocess-bench.
#include <stdio.h>
#include <stdlib.h>
#include "CImageCodecs.h"

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s IMAGE.jpg > IMAGE.rgb\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size);
    if (fread(data, 1, size, f) != (size_t)size) { perror("read"); return 1; }
    char err[SY_ERROR_CAPACITY];
    sy_image_info info;
    if (sy_jpeg_read_info(data, size, &info, err) != SY_OK) { fprintf(stderr, "%s\n", err); return 1; }
    size_t bytes = (size_t)info.width * info.height * 3;
    uint8_t *out = malloc(bytes);
    if (sy_jpeg_decode_rgb8(data, size, info.width, info.height, 1000, out, bytes, err) != SY_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    fwrite(out, 1, bytes, stdout);
    fprintf(stderr, "%d %d\n", info.width, info.height);
    return 0;
}
