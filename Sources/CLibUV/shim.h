#ifndef RXUV_CLIBUV_SHIM_H
#define RXUV_CLIBUV_SHIM_H
#include <uv.h>
#endif
