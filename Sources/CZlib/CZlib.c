#include "CZlib.h"
#include <string.h>
#include <zlib.h>

long encore_gunzip(const unsigned char *input, size_t length, unsigned char *output, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    // 15 + 32: a window of 32 KiB, gzip or zlib header detected.
    if (inflateInit2(&stream, 15 + 32) != Z_OK) return -1;
    stream.next_in = (unsigned char *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    if (status == Z_STREAM_END) return written;
    if ((status == Z_BUF_ERROR || status == Z_OK) && stream.avail_out == 0) return -2;
    return -1;
}
