// What the C echo floors (uv-echo, uv-tls-echo) share: listening on
// 127.0.0.1 with the descriptor limit raised and SIGPIPE ignored, the
// chosen port printed as `port N`, and a run that SIGTERM or SIGINT ends.
#ifndef ECHO_FLOOR_H
#define ECHO_FLOOR_H

#include <uv.h>

/// Raises the descriptor limit to its hard limit, ignores SIGPIPE, makes
/// `server` on `loop` listen on 127.0.0.1:`port` (0: the system chooses)
/// with `on_connection`, and prints `port N`. Exits 1 with `program`'s
/// name and libuv's reason when a call fails.
void echo_floor_listen(const char *program, uv_loop_t *loop, uv_tcp_t *server, int port, uv_connection_cb on_connection);

/// Runs `loop` until nothing is left, `on_signal` called at SIGTERM or
/// SIGINT (it closes what the program holds, the signal handles too),
/// then closes the loop.
void echo_floor_run(uv_loop_t *loop, uv_signal_cb on_signal);

#endif
