// wsload's connections: opened and upgraded (the opening handshake of
// RFC 6455, its key and accept checked in handshake.c), and closed with the
// close handshake at the end of the run.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "LoadMeasure.h"
#include "frame.h"
#include "handshake.h"
#include "wsload.h"

/// Opens and upgrades every connection, CONNECT_BATCH at a time.
void connect_all(int port, const char *path) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct epoll_event events[MAX_EVENTS];
    char keys[CONNECT_BATCH][25];
    for (int start = 0; start < connection_count; start += CONNECT_BATCH) {
        int end = start + CONNECT_BATCH < connection_count ? start + CONNECT_BATCH : connection_count, upgraded = 0;
        for (int index = start; index < end; index++) {
            int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
            if (fd < 0) fail_errno("socket");
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) fail_errno("connect");
            connections[index].fd = fd;
            struct epoll_event event = {.events = EPOLLOUT, .data.u32 = (uint32_t)index};
            if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) < 0) fail_errno("epoll_ctl");
        }
        while (upgraded < end - start) {
            int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, 100);
            if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
            for (int event = 0; event < ready; event++) {
                int index = (int)events[event].data.u32;
                connection *peer = &connections[index];
                if (peer->state == CONNECTING) {
                    int error = 0;
                    socklen_t size = sizeof error;
                    getsockopt(peer->fd, SOL_SOCKET, SO_ERROR, &error, &size);
                    if (error != 0) { errno = error; fail_errno("connect to 127.0.0.1"); }
                    unsigned char nonce[16];
                    for (int i = 0; i < 16; i++) nonce[i] = (unsigned char)next_random();
                    char request[512];
                    int length = upgrade_request(request, sizeof request, path, port, nonce, keys[index - start]);
                    if (send(peer->fd, request, (size_t)length, MSG_NOSIGNAL) != length) fail_errno("send the upgrade request");
                    struct epoll_event reading = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
                    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, peer->fd, &reading) < 0) fail_errno("epoll_ctl");
                    peer->state = UPGRADING;
                } else if (peer->state == UPGRADING) {
                    ssize_t count = recv(peer->fd, peer->in + peer->in_length, peer->in_capacity - 1 - peer->in_length, 0);
                    if (count <= 0) fail(count == 0 ? "the server closed a connection during the handshake" : "recv during the handshake");
                    peer->in_length += (size_t)count;
                    peer->in[peer->in_length] = 0;
                    const char *problem = NULL;
                    size_t head = upgrade_answer((char *)peer->in, keys[index - start], &problem);
                    if (problem != NULL) fail(problem);
                    if (head == 0) continue;
                    memmove(peer->in, peer->in + head, peer->in_length - head);
                    peer->in_length -= head;
                    peer->state = OPEN;
                    upgraded++;
                    last_progress = measure_now_ns();
                }
            }
            check_stall();
        }
    }
}

/// Throughput: once the frame begun is out, queues the Close; 1 when queued.
static int queue_close(int index) {
    static const unsigned char normal[2] = {0x03, 0xe8};
    connection *peer = &connections[index];
    if (!throughput) {
        send_small(peer, OP_CLOSE, normal, 2);
    } else {
        pump(index, 1);
        if (peer->out_offset != peer->out_length) return 0;
        peer->out_length = frame_write(peer->out, OP_CLOSE, normal, 2, (uint32_t)next_random());
        peer->out_offset = 0;
        pump(index, 1);
    }
    peer->state = CLOSE_SENT;
    return 1;
}

/// Sends a Close (1000) on every connection and reads until each is
/// answered or closed, 5 seconds at most.
void close_all(void) {
    struct epoll_event events[MAX_EVENTS];
    uint64_t deadline = measure_now_ns() + 5000000000ull;
    int open = connection_count;
    for (int index = 0; index < connection_count; index++) {
        connections[index].pong_length = 0;
        queue_close(index);
    }
    while (open > 0 && measure_now_ns() < deadline) {
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, 100);
        if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
        for (int event = 0; event < ready; event++) {
            int index = (int)events[event].data.u32;
            connection *peer = &connections[index];
            if (peer->state == DONE) continue;
            if (peer->state == OPEN) queue_close(index);
            else if (throughput) pump(index, 1);
            if (receive(index, throughput) < 0) peer->state = DONE;  // closed without a Close
            if (peer->state == DONE) {
                epoll_ctl(epoll_fd, EPOLL_CTL_DEL, peer->fd, NULL);
                open--;
            }
        }
    }
}

