// uv-http: the floor of an HTTP request's cost in the HTTP benchmarks, in
// plain C on libuv, one loop, one thread. It answers every read with one
// fixed keep-alive response (`hello`, text/plain, with a Date and a Server
// field, as RxUV's http-server sends it), written with uv_try_write: the
// system calls a request needs (a read and a write) and nothing else, no
// parsing. So it serves wrk's one-request-at-a-time load only.
//
//   uv-http [--port N] [--spin NS]
//
// `--spin NS` busy-waits NS nanoseconds (CLOCK_MONOTONIC) before each
// answer: a server as cheap as the floor plus NS, to see how latency under
// load follows a server's CPU per request (BENCHMARKS.md, "Why p99 follows
// CPU per request").
//
// Prints "port N" once listening on 127.0.0.1; SIGTERM or SIGINT stops it.

#include <uv.h>

#include "EchoFloor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { READ_BUFFER_SIZE = 64 * 1024 };

static const char response[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n"
    "Server: uv-http\r\nDate: Sat, 28 Nov 2026 00:00:00 GMT\r\n\r\nhello";

static char read_buffer[READ_BUFFER_SIZE];
static long spin_nanoseconds = 0;
static uv_loop_t *loop;
static uv_tcp_t server;

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    buffer->base = read_buffer;
    buffer->len = READ_BUFFER_SIZE;
}

static void on_close(uv_handle_t *handle) {
    free(handle);
}

/// Busy-waits `nanoseconds` on the monotonic clock.
static void spin(long nanoseconds) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < nanoseconds);
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    (void)buffer;
    if (count > 0) {
        if (spin_nanoseconds > 0) spin(spin_nanoseconds);
        uv_buf_t answer = uv_buf_init((char *)response, sizeof response - 1);
        // A 130-byte answer to a peer that reads: the kernel takes it whole,
        // or the connection is closed (no queue in a floor).
        if (uv_try_write(stream, &answer, 1) != (int)answer.len && !uv_is_closing((uv_handle_t *)stream)) {
            uv_close((uv_handle_t *)stream, on_close);
        }
        return;
    }
    if (count < 0 && !uv_is_closing((uv_handle_t *)stream)) {
        uv_close((uv_handle_t *)stream, on_close);
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status < 0) return;
    uv_tcp_t *client = malloc(sizeof *client);
    if (client == NULL) return;
    uv_tcp_init(loop, client);
    if (uv_accept(listener, (uv_stream_t *)client) < 0) {
        uv_close((uv_handle_t *)client, on_close);
        return;
    }
    uv_tcp_nodelay(client, 1);
    uv_read_start((uv_stream_t *)client, on_alloc, on_read);
}

static void close_any(uv_handle_t *handle, void *argument) {
    (void)argument;
    if (!uv_is_closing(handle)) {
        uv_close(handle, handle == (uv_handle_t *)&server || handle->type == UV_SIGNAL ? NULL : on_close);
    }
}

static void on_signal(uv_signal_t *signal_handle, int signum) {
    (void)signum;
    uv_walk(signal_handle->loop, close_any, NULL);
}

int main(int argc, char **argv) {
    int port = 0;
    for (int index = 1; index < argc; index++) {
        if (strcmp(argv[index], "--port") == 0 && index + 1 < argc) {
            port = atoi(argv[++index]);
        } else if (strcmp(argv[index], "--spin") == 0 && index + 1 < argc) {
            spin_nanoseconds = atol(argv[++index]);
        } else {
            fprintf(stderr, "usage: uv-http [--port N] [--spin NS]\n");
            return 2;
        }
    }
    loop = uv_default_loop();
    echo_floor_listen("uv-http", loop, &server, port, on_connection);
    echo_floor_run(loop, on_signal);
    return 0;
}
