// uv-echo: the floor for the echo benchmarks, a TCP echo server in plain C
// on libuv, one loop, one thread.
//
//   uv-echo [--port N] [--malloc]
//   uv-echo [--port N] --http [--spin NS]
//
// Default ("reuse"): every read lands in one 64 KiB buffer owned by the loop;
// the bytes go back with uv_try_write, and only what the kernel did not take
// at once is copied into a uv_write request. `--malloc`: the textbook libuv
// echo, a fresh 64 KiB malloc per read handed to uv_write and freed in the
// write callback. Both set TCP_NODELAY, listen with a backlog of 128 (as RxUV
// does) and pause reading while more than 64 KiB wait to be written (RxUV's
// default high watermark).
//
// `--http`: the floor of an HTTP request in the HTTP benchmarks. Every read
// is answered with one fixed keep-alive response (`hello`, text/plain, with
// a Date and a Server field, as RxUV's http-server sends it) through
// uv_try_write: the system calls a request needs (a read and a write) and
// nothing else, no parsing, so it serves wrk's one-request-at-a-time load
// only. `--spin NS` busy-waits NS nanoseconds (CLOCK_MONOTONIC) before each
// answer: a server as cheap as the floor plus NS, to see how latency under
// load follows a server's CPU per request (Scripts/httpfloor.py).
//
// Prints "port N" once listening on 127.0.0.1; SIGTERM or SIGINT stops it.

#include <uv.h>

#include "EchoFloor.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { READ_BUFFER_SIZE = 64 * 1024, HIGH_WATERMARK = 64 * 1024 };

static int use_malloc = 0;
static int answer_http = 0;
static long spin_nanoseconds = 0;

static const char http_answer[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n"
    "Server: uv-echo\r\nDate: Sat, 28 Nov 2026 00:00:00 GMT\r\n\r\nhello";
static char shared_buffer[READ_BUFFER_SIZE];
static uv_loop_t *loop;
static uv_tcp_t server;

typedef struct {
    uv_write_t request;
    uv_buf_t buffer;
} write_request;

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    if (use_malloc) {
        buffer->base = malloc(READ_BUFFER_SIZE);
        buffer->len = buffer->base ? READ_BUFFER_SIZE : 0;
    } else {
        buffer->base = shared_buffer;
        buffer->len = READ_BUFFER_SIZE;
    }
}

static void on_close(uv_handle_t *handle) {
    free(handle);
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer);

static void on_write(uv_write_t *request, int status) {
    write_request *write = (write_request *)request;
    uv_stream_t *stream = request->handle;
    free(write->buffer.base);
    free(write);
    if (status < 0) {
        if (!uv_is_closing((uv_handle_t *)stream)) {
            uv_close((uv_handle_t *)stream, on_close);
        }
        return;
    }
    // Resume a paused reader once the queue has drained below half the mark.
    if (stream->data != NULL && uv_stream_get_write_queue_size(stream) <= HIGH_WATERMARK / 2 &&
        !uv_is_closing((uv_handle_t *)stream)) {
        stream->data = NULL;
        uv_read_start(stream, on_alloc, on_read);
    }
}

/// Queues `count` bytes at `bytes` with uv_write; `owned` says whether the
/// memory is already a malloc block the request may take over.
static void queue_write(uv_stream_t *stream, char *bytes, size_t count, int owned) {
    write_request *write = malloc(sizeof *write);
    if (write == NULL) {
        if (owned) free(bytes);
        uv_close((uv_handle_t *)stream, on_close);
        return;
    }
    if (owned) {
        write->buffer = uv_buf_init(bytes, (unsigned)count);
    } else {
        write->buffer = uv_buf_init(malloc(count), (unsigned)count);
        if (write->buffer.base == NULL) {
            free(write);
            uv_close((uv_handle_t *)stream, on_close);
            return;
        }
        memcpy(write->buffer.base, bytes, count);
    }
    int status = uv_write(&write->request, stream, &write->buffer, 1, on_write);
    if (status < 0) {
        free(write->buffer.base);
        free(write);
        uv_close((uv_handle_t *)stream, on_close);
        return;
    }
    if (uv_stream_get_write_queue_size(stream) > HIGH_WATERMARK) {
        stream->data = stream;   // paused
        uv_read_stop(stream);
    }
}

/// Busy-waits `nanoseconds` on the monotonic clock.
static void spin(long nanoseconds) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < nanoseconds);
}

/// `--http`: a read is a request, answered at once. A 130-byte answer to a
/// peer that reads: the kernel takes it whole, or the connection is closed
/// (no queue in a floor).
static void answer(uv_stream_t *stream) {
    if (spin_nanoseconds > 0) spin(spin_nanoseconds);
    uv_buf_t reply = uv_buf_init((char *)http_answer, sizeof http_answer - 1);
    if (uv_try_write(stream, &reply, 1) != (int)reply.len && !uv_is_closing((uv_handle_t *)stream)) {
        uv_close((uv_handle_t *)stream, on_close);
    }
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    if (count > 0) {
        if (answer_http) {
            answer(stream);
            return;
        }
        if (use_malloc) {
            queue_write(stream, buffer->base, (size_t)count, 1);
            return;
        }
        uv_buf_t pending = uv_buf_init(buffer->base, (unsigned)count);
        int written = uv_stream_get_write_queue_size(stream) == 0 ? uv_try_write(stream, &pending, 1) : UV_EAGAIN;
        if (written == count) return;
        if (written < 0 && written != UV_EAGAIN) {
            uv_close((uv_handle_t *)stream, on_close);
            return;
        }
        size_t done = written > 0 ? (size_t)written : 0;
        queue_write(stream, buffer->base + done, (size_t)count - done, 0);
        return;
    }
    if (use_malloc) free(buffer->base);
    if (count < 0 && !uv_is_closing((uv_handle_t *)stream)) {
        uv_close((uv_handle_t *)stream, on_close);
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status < 0) return;
    uv_tcp_t *client = malloc(sizeof *client);
    if (client == NULL) return;
    uv_tcp_init(loop, client);
    client->data = NULL;
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
        if (strcmp(argv[index], "--malloc") == 0) {
            use_malloc = 1;
        } else if (strcmp(argv[index], "--http") == 0) {
            answer_http = 1;
        } else if (strcmp(argv[index], "--spin") == 0 && index + 1 < argc) {
            spin_nanoseconds = atol(argv[++index]);
        } else if (strcmp(argv[index], "--port") == 0 && index + 1 < argc) {
            port = atoi(argv[++index]);
        } else {
            fprintf(stderr, "usage: uv-echo [--port N] [--malloc | --http [--spin NS]]\n");
            return 2;
        }
    }
    loop = uv_default_loop();
    echo_floor_listen("uv-echo", loop, &server, port, on_connection);
    echo_floor_run(loop, on_signal);
    return 0;
}
