// netload: the load generator of the bridge benchmarks. One thread on
// epoll, plain syscalls, no libuv, so that it stays lighter than the servers
// it drives. Connects to 127.0.0.1 only.
//
//   netload --port N [--connections C] [--seconds S] [--warmup W]
//           [--size B] [--throughput] [--server-pid PID]
//
// Ping-pong (default): C connections (default 10) each keep one B-byte
// message (default 64) in flight; every echo is checked byte for byte and
// answered with the next message. After W seconds of warm-up (default 0.2)
// it counts round trips for S seconds (default 2) and reports round trips
// per second and the p50/p99 latency.
//
// --throughput: each connection writes a stream in 1 MiB chunks, keeping at
// most 4 MiB unechoed, and reads the echo back; reports echoed MiB/s.
//
// --server-pid: also reports the server's CPU time over the measured window
// (the sum of /proc/PID/task/*/schedstat, nanoseconds on a CPU), per round
// trip or per MiB, and the server's RSS (/proc/PID/status VmRSS) at the end
// of the window, with every connection still open.
//
// The client's own CPU use over the window is printed too: near 100 % the
// client, not the server, would be the bottleneck.
//
// Output: one line of key=value pairs. Exit status 1 on any failure
// (refused or reset connection, wrong echo, no progress for 10 seconds).

#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "LoadMeasure.h"

enum {
    MAX_MESSAGE = 4096,
    CONNECT_BATCH = 64,
    CHUNK = 1 << 20,          // throughput: bytes per write chunk
    WINDOW = 4 << 20,         // throughput: most bytes in flight per connection
    BUCKET_NS = 100,          // latency histogram resolution
    BUCKETS = 1000000,        // ... up to 100 ms; slower round trips land in the last bucket
    MAX_EVENTS = 1024,
};

typedef struct {
    int fd;
    int connected;
    uint32_t got;             // ping-pong: bytes of the current echo received
    uint64_t sequence;        // ping-pong: number of the message in flight
    uint64_t sent_at;         // ping-pong: when it was sent (ns)
    uint64_t sent;            // throughput: bytes written
    uint64_t received;        // throughput: bytes read back
    unsigned char echo[MAX_MESSAGE];
} connection;

static uint32_t histogram[BUCKETS];
static latency_histogram latency = {histogram, BUCKETS, BUCKET_NS};
static unsigned char chunk[CHUNK];
static unsigned char scratch[CHUNK];
static connection *connections;
static int connection_count = 10;
static int message_size = 64;
static int epoll_fd;
static uint64_t last_progress;

static void fail(const char *what) {
    fprintf(stderr, "netload: %s\n", what);
    exit(1);
}

static void fail_errno(const char *what) {
    fprintf(stderr, "netload: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void send_ping(int index) {
    connection *peer = &connections[index];
    unsigned char message[MAX_MESSAGE];
    measure_fill_message(message, message_size, index, peer->sequence);
    peer->got = 0;
    peer->sent_at = measure_now_ns();
    ssize_t written = send(peer->fd, message, (size_t)message_size, MSG_NOSIGNAL);
    if (written < 0) fail_errno("send");
    if (written != message_size) fail("short send on an idle connection");
}

/// Reads what is there of the echo on connection `index`; returns 1 when the
/// whole message is back (and correct), 0 when more is to come.
static int receive_pong(int index) {
    connection *peer = &connections[index];
    ssize_t count = recv(peer->fd, peer->echo + peer->got, (size_t)message_size - peer->got, 0);
    if (count == 0) fail("the server closed a connection");
    if (count < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
        fail_errno("recv");
    }
    peer->got += (uint32_t)count;
    if (peer->got < (uint32_t)message_size) return 0;
    unsigned char expected[MAX_MESSAGE];
    measure_fill_message(expected, message_size, index, peer->sequence);
    if (memcmp(expected, peer->echo, (size_t)message_size) != 0) fail("the echo differs from the message sent");
    peer->sequence++;
    last_progress = measure_now_ns();
    return 1;
}

static void check_stall(void) {
    if (measure_now_ns() - last_progress > 10ull * 1000000000u) fail("no progress for 10 seconds");
}

/// Opens every connection, CONNECT_BATCH at a time; each batch is connected
/// and has echoed one message before the next starts, so the server's
/// accept backlog never overflows.
static void connect_all(int port, int first_events) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct epoll_event events[MAX_EVENTS];
    for (int start = 0; start < connection_count; start += CONNECT_BATCH) {
        int end = start + CONNECT_BATCH < connection_count ? start + CONNECT_BATCH : connection_count;
        for (int index = start; index < end; index++) {
            int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            if (fd < 0) fail_errno("socket");
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) fail_errno("connect");
            connections[index].fd = fd;
            struct epoll_event event = {.events = EPOLLOUT, .data.u32 = (uint32_t)index};
            if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) < 0) fail_errno("epoll_ctl");
        }
        // Connected: switch to reading and send the first message.
        int answered = 0;
        while (answered < end - start) {
            int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, 100);
            if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
            for (int event = 0; event < ready; event++) {
                int index = (int)events[event].data.u32;
                connection *peer = &connections[index];
                if (!peer->connected) {
                    if (!(events[event].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) continue;
                    int error = 0;
                    socklen_t length = sizeof error;
                    getsockopt(peer->fd, SOL_SOCKET, SO_ERROR, &error, &length);
                    if (error != 0) {
                        errno = error;
                        fail_errno("connect to 127.0.0.1");
                    }
                    struct epoll_event reading = {.events = first_events, .data.u32 = (uint32_t)index};
                    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, peer->fd, &reading) < 0) fail_errno("epoll_ctl");
                    peer->connected = 1;
                    send_ping(index);
                } else if ((events[event].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) && receive_pong(index)) {
                    answered++;
                }
            }
            check_stall();
        }
    }
}

/// Throughput: writes and reads on connection `index` until the kernel says
/// EAGAIN or the window is full; returns the bytes read.
static uint64_t pump(int index) {
    connection *peer = &connections[index];
    uint64_t read_now = 0;
    for (;;) {
        ssize_t count = recv(peer->fd, scratch, CHUNK, 0);
        if (count == 0) fail("the server closed a connection");
        if (count < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            fail_errno("recv");
        }
        // The stream's byte at offset k is k & 0xff: check both ends of each read.
        if (scratch[0] != (unsigned char)(peer->received & 0xff) ||
            scratch[count - 1] != (unsigned char)((peer->received + (uint64_t)count - 1) & 0xff)) {
            fail("the echoed stream differs from the stream sent");
        }
        peer->received += (uint64_t)count;
        read_now += (uint64_t)count;
    }
    while (peer->sent - peer->received < WINDOW) {
        size_t offset = (size_t)(peer->sent % CHUNK);
        size_t room = WINDOW - (size_t)(peer->sent - peer->received);
        size_t length = CHUNK - offset < room ? CHUNK - offset : room;
        ssize_t count = send(peer->fd, chunk + offset, length, MSG_NOSIGNAL);
        if (count < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            fail_errno("send");
        }
        peer->sent += (uint64_t)count;
    }
    if (read_now > 0) last_progress = measure_now_ns();
    return read_now;
}

int main(int argc, char **argv) {
    int port = 0, server_pid = 0, throughput = 0;
    double seconds = 2.0, warmup = 0.2;
    for (int index = 1; index < argc; index++) {
        const char *argument = argv[index];
        const char *value = index + 1 < argc ? argv[index + 1] : NULL;
        if (strcmp(argument, "--throughput") == 0) { throughput = 1; continue; }
        if (value == NULL) fail("usage: netload --port N [--connections C] [--seconds S] [--warmup W] [--size B] [--throughput] [--server-pid PID]");
        if (strcmp(argument, "--port") == 0) port = atoi(value);
        else if (strcmp(argument, "--connections") == 0) connection_count = atoi(value);
        else if (strcmp(argument, "--seconds") == 0) seconds = atof(value);
        else if (strcmp(argument, "--warmup") == 0) warmup = atof(value);
        else if (strcmp(argument, "--size") == 0) message_size = atoi(value);
        else if (strcmp(argument, "--server-pid") == 0) server_pid = atoi(value);
        else fail("usage: netload --port N [--connections C] [--seconds S] [--warmup W] [--size B] [--throughput] [--server-pid PID]");
        index++;
    }
    if (port <= 0 || port > 65535) fail("--port must be 1...65535");
    if (connection_count < 1 || connection_count > 10000) fail("--connections must be 1...10000");
    if (message_size < 1 || message_size > MAX_MESSAGE) fail("--size must be 1...4096");
    if (seconds <= 0 || seconds > 600 || warmup < 0 || warmup > 60) fail("--seconds must be in (0, 600], --warmup in [0, 60]");

    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    signal(SIGPIPE, SIG_IGN);
    for (int offset = 0; offset < CHUNK; offset++) chunk[offset] = (unsigned char)(offset & 0xff);
    connections = calloc((size_t)connection_count, sizeof *connections);
    if (connections == NULL) fail("out of memory");
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) fail_errno("epoll_create1");
    last_progress = measure_now_ns();

    // Ping-pong reads level-triggered; throughput pumps edge-triggered.
    connect_all(port, throughput ? (EPOLLIN | EPOLLOUT | EPOLLET) : EPOLLIN);

    uint64_t started = measure_now_ns();
    uint64_t measure_from = started + (uint64_t)(warmup * 1e9);
    uint64_t measure_until = measure_from + (uint64_t)(seconds * 1e9);
    int measuring = 0;
    uint64_t round_trips = 0, bytes = 0;
    int64_t server_cpu_start = 0, server_cpu_end = 0;
    double client_cpu_start = 0, client_cpu_end = 0;
    uint64_t window_start = 0, window_end = 0;

    if (throughput) {
        for (int index = 0; index < connection_count; index++) pump(index);
    } else {
        for (int index = 0; index < connection_count; index++) send_ping(index);
    }
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        uint64_t now = measure_now_ns();
        if (!measuring && now >= measure_from) {
            measuring = 1;
            memset(histogram, 0, sizeof histogram);
            round_trips = 0;
            bytes = 0;
            server_cpu_start = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_start = measure_self_cpu_seconds();
            window_start = measure_now_ns();
        } else if (measuring && now >= measure_until) {
            window_end = measure_now_ns();
            server_cpu_end = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_end = measure_self_cpu_seconds();
            break;
        }
        uint64_t boundary = measuring ? measure_until : measure_from;
        int timeout = (int)((boundary - now) / 1000000u) + 1;
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, timeout);
        if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
        for (int event = 0; event < ready; event++) {
            int index = (int)events[event].data.u32;
            if (throughput) {
                bytes += pump(index);
            } else if (receive_pong(index)) {
                if (measuring) {
                    latency_add(&latency, last_progress - connections[index].sent_at);
                    round_trips++;
                }
                send_ping(index);
            }
        }
        check_stall();
    }

    double window = (double)(window_end - window_start) / 1e9;
    double server_cpu = server_pid && server_cpu_start >= 0 && server_cpu_end >= 0 ? (double)(server_cpu_end - server_cpu_start) / 1e9 : -1;
    double client_cpu_pct = 100.0 * (client_cpu_end - client_cpu_start) / window;
    long rss = server_pid ? measure_process_status_kib(server_pid, "VmRSS") : -1;
    if (throughput) {
        double mebibytes = (double)bytes / (1024.0 * 1024.0);
        printf("mode=throughput connections=%d seconds=%.3f bytes=%llu mib_per_s=%.1f server_cpu_pct=%.1f server_cpu_ms_per_gib=%.1f server_rss_kib=%ld client_cpu_pct=%.1f\n",
               connection_count, window, (unsigned long long)bytes, mebibytes / window,
               server_cpu >= 0 ? 100.0 * server_cpu / window : -1,
               server_cpu >= 0 && bytes > 0 ? 1000.0 * server_cpu / (mebibytes / 1024.0) : -1,
               rss, client_cpu_pct);
    } else {
        printf("mode=pingpong connections=%d size=%d seconds=%.3f round_trips=%llu rt_per_s=%.0f p50_us=%.1f p99_us=%.1f server_cpu_pct=%.1f server_cpu_us_per_rt=%.2f server_rss_kib=%ld client_cpu_pct=%.1f\n",
               connection_count, message_size, window, (unsigned long long)round_trips, (double)round_trips / window,
               latency_percentile_us(&latency, round_trips, 0.50), latency_percentile_us(&latency, round_trips, 0.99),
               server_cpu >= 0 ? 100.0 * server_cpu / window : -1,
               server_cpu >= 0 && round_trips > 0 ? 1e6 * server_cpu / (double)round_trips : -1,
               rss, client_cpu_pct);
    }
    fflush(stdout);
    for (int index = 0; index < connection_count; index++) close(connections[index].fd);
    return round_trips > 0 || bytes > 0 ? 0 : 1;
}
