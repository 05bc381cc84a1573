#ifndef RXUV_CNGHTTP2_SHIM_H
#define RXUV_CNGHTTP2_SHIM_H
/* The system's nghttp2 (Debian's libnghttp2-dev) for RxUVHTTP2, the only
   target that imports it. Nothing else lives in this header. */
#include <nghttp2/nghttp2.h>
#endif
