#ifndef RXUV_CZLIB_SHIM_H
#define RXUV_CZLIB_SHIM_H
/* The system's zlib for RxUVHTTPClient (gzip and deflate response bodies)
   and RxUVWebSocket (permessage-deflate).
   zlib spells inflateInit2 and deflateInit2 as macros over inflateInit2_
   and deflateInit2_ (they pass the header's version and sizeof(z_stream) so
   that the library can check them); Swift imports no function-like macro,
   so each is a static inline function here, named after the macro with an
   rxuv_ prefix. Nothing else lives in this header. */
#include <zlib.h>

static inline int rxuv_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

static inline int rxuv_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

#endif
