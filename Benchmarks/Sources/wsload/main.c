// wsload: the load generator of the WebSocket echo benchmark
// (Scripts/wsbench.py). One thread on epoll, plain syscalls, no libuv, as
// netload; a WebSocket client (RFC 6455) of its own, SHA-1 included.
// Connects to 127.0.0.1 only.
//
//   wsload --port N [--path /echo] [--connections C] [--seconds S] [--warmup W]
//          [--count K] [--size B] [--throughput] [--frame B] [--window F]
//          [--server-pid PID]
//
// Each connection first does the opening handshake (GET PATH with Upgrade:
// websocket and a random Sec-WebSocket-Key; the answer must be 101 with the
// matching Sec-WebSocket-Accept), 64 connections at a time.
//
// Ping-pong (default): C connections (default 10) each keep one masked text
// message of B bytes (default 24, ASCII naming the connection and the
// message's number) in flight; every echo must come back as the same text,
// unmasked (fragments are gathered; a server's ping is answered), and is
// answered with the next message. After W seconds of warm-up (default 0.2)
// it counts round trips for S seconds (default 2), or until K of them; it
// reports messages per second and the p50/p99 latency.
//
// --throughput: one connection (or C) sends masked binary frames of B bytes
// (--frame, default 65536), keeping F of them (--window, default 8) unechoed,
// each echo checked whole; reports echoed MiB/s.
//
// At the end every connection sends a Close (1000) and reads until the
// server's Close; `closed=` counts the answered ones (5 seconds at most).
//
// --server-pid: the server's CPU over the measured window (LoadMeasure: the
// sum of /proc/PID/task/*/schedstat, as netload), per message or per GiB,
// and its RSS at the end of the window. The client's own CPU is printed too.
//
// Output: one line of key=value pairs. Exit status 1 on any failure (refused
// or reset connection, a bad handshake or echo, no progress for 10 seconds, a
// Close not answered).

#define _GNU_SOURCE
#include <arpa/inet.h>
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
#include <unistd.h>

#include "LoadMeasure.h"
#include "frame.h"
#include "handshake.h"
#include "wsload.h"


static uint32_t histogram[BUCKETS];
static latency_histogram latency = {histogram, BUCKETS, BUCKET_NS};
connection *connections;
int connection_count = 10, throughput = 0, epoll_fd;
static int message_size = 24, window_frames = 8;
static size_t frame_size = 65536;
static unsigned char *pattern;       // throughput: every frame's payload, its number in the first 8 bytes
uint64_t last_progress;
static uint64_t random_state;
uint64_t closed_answered;

void fail(const char *what) { fprintf(stderr, "wsload: %s\n", what); exit(1); }
void fail_errno(const char *what) { fprintf(stderr, "wsload: %s: %s\n", what, strerror(errno)); exit(1); }

uint64_t next_random(void) {  // xorshift64*: masking keys and handshake keys
    random_state ^= random_state >> 12; random_state ^= random_state << 25; random_state ^= random_state >> 27;
    return random_state * 0x2545F4914F6CDD1Dull;
}

/// Sends a small frame whole (the socket's buffer has room for it, or the test fails).
void send_small(connection *peer, int opcode, const unsigned char *payload, size_t length) {
    unsigned char frame[MAX_TEXT + HEAD_ROOM];
    size_t total = frame_write(frame, opcode, payload, length, (uint32_t)next_random());
    ssize_t written = send(peer->fd, frame, total, MSG_NOSIGNAL);
    if (written < 0) fail_errno("send");
    if ((size_t)written != total) fail("short send of a small frame");
}

/// Ping-pong's message `sequence` on connection `index`: ASCII text.
static void fill_text(unsigned char *text, int index, uint64_t sequence) {
    char head[48];
    int length = snprintf(head, sizeof head, "%d:%llu:", index, (unsigned long long)sequence);
    for (int i = 0; i < message_size; i++) text[i] = (unsigned char)(i < length ? head[i] : 'a' + (int)(((uint64_t)i * 7 + sequence) % 26));
}

static void send_next(int index) {
    unsigned char text[MAX_TEXT];
    fill_text(text, index, connections[index].sequence);
    connections[index].sent_at = measure_now_ns();
    send_small(&connections[index], OP_TEXT, text, (size_t)message_size);
}

/// Checks a whole echoed message; returns 1 if it is the one expected next.
static int check_echo(int index, int opcode, const unsigned char *payload, size_t length) {
    connection *peer = &connections[index];
    if (throughput) {
        if (opcode != OP_BINARY || length != frame_size) fail("the echo is not the binary frame sent");
        if (memcmp(payload, &peer->sequence, 8) != 0 || memcmp(payload + 8, pattern + 8, length - 8) != 0)
            fail("the echoed frame differs from the frame sent");
    } else {
        unsigned char expected[MAX_TEXT];
        fill_text(expected, index, peer->sequence);
        if (opcode != OP_TEXT || length != (size_t)message_size || memcmp(expected, payload, length) != 0)
            fail("the echo differs from the message sent");
    }
    peer->sequence++;
    last_progress = measure_now_ns();
    return 1;
}

/// One frame from the server; returns 1 when it completes an expected echo.
static int on_frame(int index, int opcode, int fin, const unsigned char *payload, size_t length) {
    connection *peer = &connections[index];
    if (opcode >= 8) {
        if (!fin || length > 125) fail("a fragmented or long control frame");
        if (opcode == OP_PING && peer->state == OPEN) {
            if (!throughput) send_small(peer, OP_PONG, payload, length);
            else { memcpy(peer->pong, payload, length); peer->pong_length = (int)length + 1; }
        } else if (opcode == OP_CLOSE) {
            if (peer->state != CLOSE_SENT) fail("the server sent a Close while the test ran");
            if (length >= 2 && (payload[0] << 8 | payload[1]) != 1000) fail("the server answered the Close with a code other than 1000");
            peer->state = DONE;
            closed_answered++;
        } else if (opcode != OP_PING && opcode != OP_PONG) {
            fail("an unknown control opcode");
        }
        return 0;
    }
    if ((opcode == OP_CONTINUATION) != (peer->gathering != 0)) fail("a continuation out of place");
    if (!fin || peer->gathering) {
        size_t limit = throughput ? frame_size : (size_t)message_size;
        if (!peer->gathering) {
            peer->gathering = 1; peer->gather_opcode = opcode; peer->gather_length = 0;
            if (peer->gather == NULL && (peer->gather = malloc(limit)) == NULL) fail("out of memory");
        }
        if (peer->gather_length + length > limit) fail("an echo longer than the message sent");
        memcpy(peer->gather + peer->gather_length, payload, length);
        peer->gather_length += length;
        if (!fin) return 0;
        peer->gathering = 0;
        opcode = peer->gather_opcode; payload = peer->gather; length = peer->gather_length;
    }
    return peer->state == OPEN ? check_echo(index, opcode, payload, length) : 0;  // after our Close: not counted
}

/// Parses the frames read on connection `index`; returns the echoes completed.
static int parse_frames(int index) {
    connection *peer = &connections[index];
    size_t offset = 0;
    int echoes = 0;
    for (;;) {
        const unsigned char *frame = peer->in + offset;
        size_t header;
        uint64_t length;
        const char *problem = NULL;
        if (!frame_header(frame, peer->in_length - offset, &header, &length, &problem)) {
            if (problem != NULL) fail(problem);
            break;
        }
        if (length > MAX_FRAME) fail("a server frame longer than 1 MiB");
        if (peer->in_length - offset < header + length) break;
        echoes += on_frame(index, frame[0] & 0x0f, frame[0] >> 7, frame + header, (size_t)length);
        offset += header + (size_t)length;
    }
    memmove(peer->in, peer->in + offset, peer->in_length - offset);
    peer->in_length -= offset;
    return echoes;
}

/// Reads what is there: once (level-triggered), or until EAGAIN (edge-triggered
/// throughput); returns the echoes completed, or -1 if the server closed.
int receive(int index, int until_again) {
    connection *peer = &connections[index];
    int echoes = 0;
    do {
        if (peer->in_length == peer->in_capacity) fail("a frame larger than the read buffer");
        ssize_t count = recv(peer->fd, peer->in + peer->in_length, peer->in_capacity - peer->in_length, 0);
        if (count == 0) return -1;
        if (count < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            fail_errno("recv");
        }
        peer->in_length += (size_t)count;
        echoes += parse_frames(index);
    } while (until_again);
    return echoes;
}

/// Throughput: writes frames (and any pong, between frames) until the window
/// is full or the kernel says EAGAIN; `stopping`: finishes the frame begun only.
void pump(int index, int stopping) {
    connection *peer = &connections[index];
    for (;;) {
        if (peer->out_offset == peer->out_length) {
            if (peer->pong_length) {
                peer->out_length = frame_write(peer->out, OP_PONG, peer->pong, (size_t)peer->pong_length - 1, (uint32_t)next_random());
                peer->pong_length = 0;
            } else if (!stopping && peer->frames_sent - peer->sequence < (uint64_t)window_frames) {
                memcpy(pattern, &peer->frames_sent, 8);
                peer->out_length = frame_write(peer->out, OP_BINARY, pattern, frame_size, (uint32_t)next_random());
                peer->frames_sent++;
            } else {
                return;
            }
            peer->out_offset = 0;
        }
        ssize_t count = send(peer->fd, peer->out + peer->out_offset, peer->out_length - peer->out_offset, MSG_NOSIGNAL);
        if (count < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            fail_errno("send");
        }
        peer->out_offset += (size_t)count;
    }
}

void check_stall(void) {
    if (measure_now_ns() - last_progress > 10ull * 1000000000u) fail("no progress for 10 seconds");
}

int main(int argc, char **argv) {
    const char *usage = "usage: wsload --port N [--path P] [--connections C] [--seconds S] [--warmup W] [--count K] "
                        "[--size B] [--throughput] [--frame B] [--window F] [--server-pid PID]";
    const char *path = "/echo";
    int port = 0, server_pid = 0;
    double seconds = 2.0, warmup = 0.2;
    uint64_t count_limit = 0;
    for (int index = 1; index < argc; index++) {
        const char *argument = argv[index], *value = index + 1 < argc ? argv[index + 1] : NULL;
        if (strcmp(argument, "--throughput") == 0) { throughput = 1; continue; }
        if (value == NULL) fail(usage);
        if (strcmp(argument, "--port") == 0) port = atoi(value);
        else if (strcmp(argument, "--path") == 0) path = value;
        else if (strcmp(argument, "--connections") == 0) connection_count = atoi(value);
        else if (strcmp(argument, "--seconds") == 0) seconds = atof(value);
        else if (strcmp(argument, "--warmup") == 0) warmup = atof(value);
        else if (strcmp(argument, "--count") == 0) count_limit = strtoull(value, NULL, 10);
        else if (strcmp(argument, "--size") == 0) message_size = atoi(value);
        else if (strcmp(argument, "--frame") == 0) frame_size = (size_t)atol(value);
        else if (strcmp(argument, "--window") == 0) window_frames = atoi(value);
        else if (strcmp(argument, "--server-pid") == 0) server_pid = atoi(value);
        else fail(usage);
        index++;
    }
    if (port <= 0 || port > 65535) fail("--port must be 1...65535");
    if (path[0] != '/' || strlen(path) > 256 || strpbrk(path, " \r\n")) fail("--path must start with / and hold no spaces");
    if (connection_count < 1 || connection_count > 10000) fail("--connections must be 1...10000");
    if (message_size < 1 || message_size > MAX_TEXT) fail("--size must be 1...4096");
    if (frame_size < 16 || frame_size > MAX_FRAME || window_frames < 1 || window_frames > 64) fail("--frame must be 16...1048576, --window 1...64");
    if (seconds <= 0 || seconds > 600 || warmup < 0 || warmup > 60) fail("--seconds must be in (0, 600], --warmup in [0, 60]");

    char check[29];
    accept_for("dGhlIHNhbXBsZSBub25jZQ==", check);  // RFC 6455's own example
    if (strcmp(check, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != 0) fail("SHA-1 or base64 is broken");

    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    signal(SIGPIPE, SIG_IGN);
    random_state = measure_now_ns() ^ ((uint64_t)getpid() << 32) ^ 0x9E3779B97F4A7C15ull;
    connections = calloc((size_t)connection_count, sizeof *connections);
    if (connections == NULL) fail("out of memory");
    for (int index = 0; index < connection_count; index++) {
        connection *peer = &connections[index];
        peer->in_capacity = throughput ? 4 * (frame_size + HEAD_ROOM) : MAX_TEXT + HEAD_ROOM + 4096;
        peer->in = malloc(peer->in_capacity);
        if (throughput) peer->out = malloc(frame_size + HEAD_ROOM);
        if (peer->in == NULL || (throughput && peer->out == NULL)) fail("out of memory");
    }
    if (throughput) {
        if ((pattern = malloc(frame_size)) == NULL) fail("out of memory");
        for (size_t offset = 0; offset < frame_size; offset++) pattern[offset] = (unsigned char)(offset * 31 + 7);
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) fail_errno("epoll_create1");
    last_progress = measure_now_ns();
    uint64_t setup_started = measure_now_ns();
    connect_all(port, path);
    double setup = (double)(measure_now_ns() - setup_started) / 1e9;

    // Ping-pong reads level-triggered; throughput pumps edge-triggered.
    for (int index = 0; index < connection_count; index++) {
        if (throughput) {
            struct epoll_event event = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.u32 = (uint32_t)index};
            if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, connections[index].fd, &event) < 0) fail_errno("epoll_ctl");
            pump(index, 0);
        } else {
            send_next(index);
        }
    }
    uint64_t started = measure_now_ns(), measure_from = started + (uint64_t)(warmup * 1e9);
    uint64_t measure_until = measure_from + (uint64_t)(seconds * 1e9), messages = 0, window_start = 0, window_end = 0;
    int measuring = 0;
    int64_t server_cpu_start = 0, server_cpu_end = 0;
    double client_cpu_start = 0, client_cpu_end = 0;
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        uint64_t now = measure_now_ns();
        if (!measuring && now >= measure_from) {
            measuring = 1;
            memset(histogram, 0, sizeof histogram);
            messages = 0;
            server_cpu_start = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_start = measure_self_cpu_seconds();
            window_start = measure_now_ns();
        } else if (measuring && (now >= measure_until || (count_limit && messages >= count_limit))) {
            window_end = measure_now_ns();
            server_cpu_end = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_end = measure_self_cpu_seconds();
            break;
        }
        uint64_t boundary = measuring ? measure_until : measure_from;
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, (int)((boundary - now) / 1000000u) + 1);
        if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
        for (int event = 0; event < ready; event++) {
            int index = (int)events[event].data.u32;
            int echoes = receive(index, throughput);
            if (echoes < 0) fail("the server closed a connection");
            if (throughput) {
                pump(index, 0);
                if (measuring) messages += (uint64_t)echoes;
            } else if (echoes > 0) {
                if (measuring) {
                    latency_add(&latency, last_progress - connections[index].sent_at);
                    messages++;
                }
                send_next(index);
            }
        }
        check_stall();
    }
    long rss = server_pid ? measure_process_status_kib(server_pid, "VmRSS") : -1;
    close_all();

    double window = (double)(window_end - window_start) / 1e9;
    double server_cpu = server_pid && server_cpu_start >= 0 && server_cpu_end >= 0 ? (double)(server_cpu_end - server_cpu_start) / 1e9 : -1;
    double client_cpu_pct = 100.0 * (client_cpu_end - client_cpu_start) / window;
    if (throughput) {
        double mebibytes = (double)messages * (double)frame_size / (1024.0 * 1024.0);
        printf("mode=throughput connections=%d frame=%zu window=%d seconds=%.3f frames=%llu mib_per_s=%.1f server_cpu_pct=%.1f"
               " server_cpu_ms_per_gib=%.1f server_rss_kib=%ld client_cpu_pct=%.1f setup_s=%.3f closed=%llu\n",
               connection_count, frame_size, window_frames, window, (unsigned long long)messages, mebibytes / window,
               server_cpu >= 0 ? 100.0 * server_cpu / window : -1,
               server_cpu >= 0 && messages > 0 ? 1000.0 * server_cpu / (mebibytes / 1024.0) : -1,
               rss, client_cpu_pct, setup, (unsigned long long)closed_answered);
    } else {
        printf("mode=pingpong connections=%d size=%d seconds=%.3f messages=%llu msg_per_s=%.0f p50_us=%.1f p99_us=%.1f"
               " server_cpu_pct=%.1f server_cpu_us_per_msg=%.2f server_rss_kib=%ld client_cpu_pct=%.1f setup_s=%.3f closed=%llu\n",
               connection_count, message_size, window, (unsigned long long)messages, (double)messages / window,
               latency_percentile_us(&latency, messages, 0.50), latency_percentile_us(&latency, messages, 0.99),
               server_cpu >= 0 ? 100.0 * server_cpu / window : -1,
               server_cpu >= 0 && messages > 0 ? 1e6 * server_cpu / (double)messages : -1,
               rss, client_cpu_pct, setup, (unsigned long long)closed_answered);
    }
    fflush(stdout);
    for (int index = 0; index < connection_count; index++) close(connections[index].fd);
    if (closed_answered < (uint64_t)connection_count) {
        fprintf(stderr, "wsload: %llu of %d Closes answered within 5 seconds\n", (unsigned long long)closed_answered, connection_count);
        return 1;
    }
    return messages > 0 ? 0 : 1;
}
