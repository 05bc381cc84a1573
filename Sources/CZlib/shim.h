#ifndef RXUV_CZLIB_SHIM_H
#define RXUV_CZLIB_SHIM_H
/* The system's zlib for RxUVHTTPClient (gzip and deflate response bodies).
   zlib spells inflateInit2 as a macro over inflateInit2_ (it passes the
   header's version and sizeof(z_stream) so that the library can check them);
   Swift imports no function-like macro, so it is a static inline function
   here, named after the macro with an rxuv_ prefix. Nothing else lives in
   this header. */
#include <zlib.h>

static inline int rxuv_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
