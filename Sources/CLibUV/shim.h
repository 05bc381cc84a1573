#ifndef RXUV_CLIBUV_SHIM_H
#define RXUV_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC, so an accepted descriptor is
   never inherited by a child spawned meanwhile on another thread. glibc
   declares accept4 only under _GNU_SOURCE, which the Glibc module is not
   built with; the system call is the same. Returns -1 and sets errno on
   failure. */
static inline int rxuv_accept_cloexec(int descriptor) {
    return (int)syscall(SYS_accept4, descriptor, (void *)0, (void *)0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

#endif
