#include "EchoFloor.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static const char *floor_program = "echo";

static void check(int status, const char *operation) {
    if (status < 0) {
        fprintf(stderr, "%s: %s: %s\n", floor_program, operation, uv_strerror(status));
        exit(1);
    }
}

void echo_floor_listen(const char *program, uv_loop_t *loop, uv_tcp_t *server, int port, uv_connection_cb on_connection) {
    floor_program = program;
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    signal(SIGPIPE, SIG_IGN);

    struct sockaddr_in address;
    check(uv_ip4_addr("127.0.0.1", port, &address), "uv_ip4_addr");
    check(uv_tcp_init(loop, server), "uv_tcp_init");
    check(uv_tcp_bind(server, (const struct sockaddr *)&address, 0), "uv_tcp_bind");
    check(uv_listen((uv_stream_t *)server, 128, on_connection), "uv_listen");
    struct sockaddr_in bound;
    int length = sizeof bound;
    check(uv_tcp_getsockname(server, (struct sockaddr *)&bound, &length), "uv_tcp_getsockname");
    printf("port %d\n", ntohs(bound.sin_port));
    fflush(stdout);
}

void echo_floor_run(uv_loop_t *loop, uv_signal_cb on_signal) {
    uv_signal_t terminate, interrupt;
    uv_signal_init(loop, &terminate);
    uv_signal_start(&terminate, on_signal, SIGTERM);
    uv_signal_init(loop, &interrupt);
    uv_signal_start(&interrupt, on_signal, SIGINT);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
}
