#ifndef ENCORE_CZLIB_H
#define ENCORE_CZLIB_H

#include <stddef.h>

/// Inflates a gzip (or zlib) stream into `output`, stopping at `capacity` bytes.
/// Returns the bytes written, -1 for data that is not gzip or is corrupt, and -2 when the
/// inflated data would pass `capacity` (a bomb is bounded, never held whole).
long encore_gunzip(const unsigned char *input, size_t length, unsigned char *output, size_t capacity);

#endif
