#ifndef RXUV_CLIBUV_SHIM_H
#define RXUV_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
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

/* Names the calling thread (at most 15 bytes; longer names are cut), as
   top -H, perf and debuggers show it. pthread_setname_np needs _GNU_SOURCE
   as accept4 does, and prctl is variadic, which Swift cannot call. */
static inline int rxuv_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* The bytes received on a socket and not read yet (FIONREAD), in
   `*count`. ioctl is variadic, which Swift cannot call. Returns -1 and sets
   errno on failure. */
static inline int rxuv_unread_bytes(int descriptor, int *count) {
    return ioctl(descriptor, FIONREAD, count);
}

/* Has the loop measure the time it spends idle in the kernel's event
   provider (epoll_wait), which uv_metrics_idle_time reads from any thread.
   uv_loop_configure is variadic, which Swift cannot call. */
static inline int rxuv_loop_measure_idle_time(uv_loop_t *loop) {
    return uv_loop_configure(loop, UV_METRICS_IDLE_TIME);
}

#endif
