// tlsload: the load generator of the TLS benchmarks, netload over TLS. One
// thread on epoll, non-blocking sockets, OpenSSL 3 on socket BIOs, no
// libuv. Connects to 127.0.0.1 only.
//
//   tlsload --port N [--connections C] [--seconds S] [--warmup W] [--size B]
//           [--throughput | --handshakes] [--server-pid PID] [--ca FILE]
//           [--groups LIST]
//
// Ping-pong (default): C connections (default 10) each keep one B-byte
// message (default 64) in flight; every echo is checked byte for byte and
// answered with the next message. After W seconds of warm-up (default 0.2)
// it counts round trips for S seconds (default 2) and reports round trips
// per second and the p50/p99 latency.
//
// --throughput: each connection writes a stream in 1 MiB chunks, keeping at
// most 4 MiB unechoed, and reads the echo back (checked byte for byte);
// reports echoed MiB/s.
//
// Both open their connections 64 at a time: each is connected, has finished
// its handshake and has echoed one message before the next batch starts.
//
// --handshakes: C connection slots; each opens a new TCP connection, runs a
// full handshake (never a resumed session: the client keeps no session and
// asks for no ticket), sends one B-byte message, reads its echo, sends
// close_notify, closes the socket and starts over. Reports completed
// connections (handshakes) per second; p50/p99 are of a whole connection,
// from connect to the echo.
//
// --ca FILE: verify the server's certificate against FILE (the host name is
// not checked); without it nothing is verified. --groups LIST: the key
// exchange groups offered (SSL_CTX_set1_groups_list, e.g. X25519 or P-256;
// TLS 1.3 sends a key share for the first one only). Under TLS 1.2 an ECDSA
// P-256 certificate also needs P-256 among them: X25519:P-256, not X25519.
//
// --server-pid: also reports the server's CPU time over the measured window
// (the sum of /proc/PID/task/*/schedstat, nanoseconds on a CPU), per round
// trip, per GiB or per handshake, and the server's RSS (/proc/PID/status
// VmRSS) at the end of the window.
//
// The client's own CPU use over the window is printed too: near 100 % the
// client, not the server, would be the bottleneck.
//
// Output: one line of key=value pairs, netload's keys, then the protocol,
// cipher and key exchange group of the first handshake. Exit status 1 on any
// failure (refused or reset connection, wrong echo, TLS error, no progress
// for 10 seconds).

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

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

enum {
    MAX_MESSAGE = 65536,
    CONNECT_BATCH = 64,
    CHUNK = 1 << 20,          // throughput: bytes per write chunk
    WINDOW = 4 << 20,         // throughput: most bytes in flight per connection
    SCRATCH = 64 * 1024,      // throughput: one SSL_read (a record is at most 16 KiB)
    BUCKETS = 1000000,        // latency histogram; slower ones land in the last bucket
    MAX_EVENTS = 1024,
};

enum { PINGPONG, THROUGHPUT, HANDSHAKES };
enum { CLOSED, CONNECTING, HANDSHAKING, OPEN };

typedef struct {
    int fd;
    SSL *ssl;
    int state;
    uint32_t generation;      // tells the events of a closed socket from its successor's
    uint32_t interest;        // the epoll events asked for; 0 when not registered
    int wants_write;          // an SSL call stopped on SSL_ERROR_WANT_WRITE
    int awaiting;             // a message is written and its echo not yet back
    uint32_t written;         // bytes of the current message written (< size: more to write)
    uint32_t got;             // bytes of the current echo received
    uint64_t sequence;        // number of the message in flight
    uint64_t sent_at;         // when it was sent; handshakes: when the connection began (ns)
    uint64_t sent;            // throughput: bytes written
    uint64_t received;        // throughput: bytes read back
    unsigned char *echo;
} connection;

static uint32_t histogram[BUCKETS];
// 100 ns buckets (to 100 ms); handshakes 1 µs (to 1 s).
static latency_histogram latency = {histogram, BUCKETS, 100};
static unsigned char chunk[CHUNK];
static unsigned char scratch[SCRATCH];
static connection *connections;
static int connection_count = 10;
static int message_size = 64;
static int mode = PINGPONG;
static int epoll_fd;
static uint64_t last_progress;
static SSL_CTX *context;
static struct sockaddr_in server_address;
static char negotiated[200] = "protocol=- cipher=- group=-";
static int have_negotiated;

// Per phase: opening counts first echoes; measuring counts round trips,
// bytes and connections.
static int opening, measuring;
static uint64_t answered, round_trips, bytes, handshakes;

static void fail(const char *what) {
    fprintf(stderr, "tlsload: %s\n", what);
    exit(1);
}

static void fail_errno(const char *what) {
    fprintf(stderr, "tlsload: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void fail_openssl(const char *what) {
    char text[256] = "failed";
    unsigned long code = ERR_get_error();
    if (code != 0) ERR_error_string_n(code, text, sizeof text);
    fprintf(stderr, "tlsload: %s: %s\n", what, text);
    exit(1);
}

static void check_stall(void) {
    if (measure_now_ns() - last_progress > 10ull * 1000000000u) fail("no progress for 10 seconds");
}

/// Sorts out an SSL call that returned `result` <= 0: returns when it only
/// has to wait (noting a wait for writability), exits on anything else.
static void ssl_wait(connection *peer, int result, const char *operation) {
    int saved_errno = errno;
    int error = SSL_get_error(peer->ssl, result);
    if (error == SSL_ERROR_WANT_READ) return;
    if (error == SSL_ERROR_WANT_WRITE) {
        peer->wants_write = 1;
        return;
    }
    char text[256] = "";
    unsigned long code = ERR_get_error();
    if (code != 0) ERR_error_string_n(code, text, sizeof text);
    if (error == SSL_ERROR_ZERO_RETURN) {
        fprintf(stderr, "tlsload: %s: the server closed a connection (close_notify)\n", operation);
    } else if (error == SSL_ERROR_SYSCALL && code == 0) {
        fprintf(stderr, "tlsload: %s: %s\n", operation, saved_errno != 0 ? strerror(saved_errno) : "the server closed a connection");
    } else {
        fprintf(stderr, "tlsload: %s: TLS error %d: %s\n", operation, error, text[0] ? text : "(no details)");
    }
    long verify = SSL_get_verify_result(peer->ssl);
    if (verify != X509_V_OK) fprintf(stderr, "tlsload: certificate: %s\n", X509_verify_cert_error_string(verify));
    exit(1);
}

static void set_interest(int index, uint32_t events) {
    connection *peer = &connections[index];
    if (peer->interest == events) return;
    struct epoll_event event = {.events = events, .data.u64 = (uint64_t)peer->generation << 32 | (uint32_t)index};
    if (epoll_ctl(epoll_fd, peer->interest ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, peer->fd, &event) < 0) fail_errno("epoll_ctl");
    peer->interest = events;
}

static void open_connection(int index) {
    connection *peer = &connections[index];
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) fail_errno("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    peer->sent_at = measure_now_ns();
    if (connect(fd, (struct sockaddr *)&server_address, sizeof server_address) < 0 && errno != EINPROGRESS) {
        fail_errno("connect to 127.0.0.1");
    }
    peer->fd = fd;
    peer->generation++;
    peer->interest = 0;
    peer->state = CONNECTING;
    peer->wants_write = 0;
    peer->awaiting = 0;
    peer->got = 0;
    peer->written = (uint32_t)message_size;
    set_interest(index, EPOLLOUT);
}

/// Handshakes: close_notify, then close the socket.
static void close_connection(int index) {
    connection *peer = &connections[index];
    SSL_shutdown(peer->ssl);
    ERR_clear_error();
    SSL_free(peer->ssl);
    peer->ssl = NULL;
    close(peer->fd);   // also takes it out of the epoll set
    peer->fd = -1;
    peer->interest = 0;
    peer->state = CLOSED;
}

/// Writes (or goes on writing) the message in flight.
static void write_message(int index) {
    connection *peer = &connections[index];
    unsigned char message[MAX_MESSAGE];
    measure_fill_message(message, message_size, index, peer->sequence);
    while (peer->written < (uint32_t)message_size) {
        int result = SSL_write(peer->ssl, message + peer->written, message_size - (int)peer->written);
        if (result <= 0) {
            ssl_wait(peer, result, "SSL_write");
            return;
        }
        peer->written += (uint32_t)result;
    }
}

static void send_message(int index) {
    connection *peer = &connections[index];
    peer->got = 0;
    peer->written = 0;
    peer->awaiting = 1;
    if (mode != HANDSHAKES) peer->sent_at = measure_now_ns();
    write_message(index);
}

/// Reads what is there of the echo; returns 1 when the whole message is
/// back (and correct), 0 when more is to come.
static int receive_echo(int index) {
    connection *peer = &connections[index];
    while (peer->got < (uint32_t)message_size) {
        int result = SSL_read(peer->ssl, peer->echo + peer->got, message_size - (int)peer->got);
        if (result <= 0) {
            ssl_wait(peer, result, "SSL_read");
            return 0;
        }
        peer->got += (uint32_t)result;
    }
    unsigned char expected[MAX_MESSAGE];
    measure_fill_message(expected, message_size, index, peer->sequence);
    if (memcmp(expected, peer->echo, (size_t)message_size) != 0) fail("the echo differs from the message sent");
    if (SSL_pending(peer->ssl) > 0) fail("the server sent more than the echo");
    peer->sequence++;
    peer->awaiting = 0;
    last_progress = measure_now_ns();
    return 1;
}

/// Throughput: reads and writes until OpenSSL has to wait or the window is
/// full; returns the bytes read.
static uint64_t pump(int index) {
    connection *peer = &connections[index];
    uint64_t read_now = 0;
    for (;;) {
        int count = SSL_read(peer->ssl, scratch, SCRATCH);
        if (count <= 0) {
            ssl_wait(peer, count, "SSL_read");
            break;
        }
        // The stream's byte at offset k is k & 0xff, as is chunk[k % CHUNK].
        size_t offset = (size_t)(peer->received % CHUNK);
        size_t first = (size_t)count < CHUNK - offset ? (size_t)count : CHUNK - offset;
        if (memcmp(scratch, chunk + offset, first) != 0 || memcmp(scratch + first, chunk, (size_t)count - first) != 0) {
            fail("the echoed stream differs from the stream sent");
        }
        peer->received += (uint64_t)count;
        read_now += (uint64_t)count;
    }
    if (peer->sent - peer->received > WINDOW) fail("the server echoed more than was sent");
    while (peer->sent - peer->received < WINDOW) {
        size_t offset = (size_t)(peer->sent % CHUNK);
        size_t room = WINDOW - (size_t)(peer->sent - peer->received);
        size_t length = CHUNK - offset < room ? CHUNK - offset : room;
        int count = SSL_write(peer->ssl, chunk + offset, (int)length);
        if (count <= 0) {
            ssl_wait(peer, count, "SSL_write");
            break;
        }
        peer->sent += (uint64_t)count;
    }
    if (read_now > 0) last_progress = measure_now_ns();
    return read_now;
}

static void note_negotiated(SSL *ssl) {
    if (have_negotiated) return;
    have_negotiated = 1;
    int group = SSL_get_negotiated_group(ssl);
    const char *group_name = group > 0 ? SSL_group_to_name(ssl, group) : NULL;
    snprintf(negotiated, sizeof negotiated, "protocol=%s cipher=%s group=%s", SSL_get_version(ssl),
             SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)), group_name ? group_name : "-");
}

/// A whole message came back on connection `index`.
static void echoed(int index) {
    connection *peer = &connections[index];
    if (opening) {
        answered++;
        return;
    }
    if (mode == HANDSHAKES) {
        if (measuring) {
            latency_add(&latency, last_progress - peer->sent_at);
            handshakes++;
        }
        close_connection(index);
        open_connection(index);
        return;
    }
    if (measuring) {
        latency_add(&latency, last_progress - peer->sent_at);
        round_trips++;
    }
    send_message(index);
}

static void handle_event(int index, uint32_t events) {
    connection *peer = &connections[index];
    peer->wants_write = 0;
    switch (peer->state) {
    case CONNECTING: {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) return;
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(peer->fd, SOL_SOCKET, SO_ERROR, &error, &length);
        if (error != 0) {
            errno = error;
            fail_errno("connect to 127.0.0.1");
        }
        peer->ssl = SSL_new(context);
        if (peer->ssl == NULL || SSL_set_fd(peer->ssl, peer->fd) != 1) fail_openssl("SSL_new");
        SSL_set_connect_state(peer->ssl);
        peer->state = HANDSHAKING;
    }
        // fall through
    case HANDSHAKING: {
        int result = SSL_do_handshake(peer->ssl);
        if (result != 1) {
            ssl_wait(peer, result, "TLS handshake");
            break;
        }
        peer->state = OPEN;
        note_negotiated(peer->ssl);
        last_progress = measure_now_ns();
        if (opening || mode == HANDSHAKES) send_message(index);
    }
        // fall through
    case OPEN:
        if (mode == THROUGHPUT && !opening) {
            uint64_t count = pump(index);
            if (measuring) bytes += count;
            break;
        }
        if (peer->written < (uint32_t)message_size) write_message(index);
        if (peer->awaiting && receive_echo(index)) echoed(index);
        break;
    }
    // A closed-and-reopened connection has asked for its own events.
    if (peer->state == HANDSHAKING || peer->state == OPEN) {
        set_interest(index, EPOLLIN | (peer->wants_write ? EPOLLOUT : 0));
    }
}

/// Runs one round of epoll_wait, at most `timeout_ms`.
static void poll_once(int timeout_ms) {
    struct epoll_event events[MAX_EVENTS];
    int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, timeout_ms);
    if (ready < 0 && errno != EINTR) fail_errno("epoll_wait");
    for (int event = 0; event < ready; event++) {
        int index = (int)(uint32_t)events[event].data.u64;
        uint32_t generation = (uint32_t)(events[event].data.u64 >> 32);
        if (generation != connections[index].generation || connections[index].state == CLOSED) continue;
        handle_event(index, events[event].events);
    }
    check_stall();
}

/// Opens every connection, CONNECT_BATCH at a time; each batch is connected,
/// has finished its handshake and has echoed one message before the next
/// starts, so the server's accept backlog never overflows.
static void connect_all(void) {
    opening = 1;
    for (int start = 0; start < connection_count; start += CONNECT_BATCH) {
        int end = start + CONNECT_BATCH < connection_count ? start + CONNECT_BATCH : connection_count;
        answered = 0;
        for (int index = start; index < end; index++) open_connection(index);
        while (answered < (uint64_t)(end - start)) poll_once(100);
    }
    opening = 0;
}

static const char *USAGE =
    "usage: tlsload --port N [--connections C] [--seconds S] [--warmup W] [--size B] [--throughput | --handshakes] "
    "[--server-pid PID] [--ca FILE] [--groups LIST]";

int main(int argc, char **argv) {
    int port = 0, server_pid = 0;
    double seconds = 2.0, warmup = 0.2;
    const char *ca = NULL, *groups = NULL;
    for (int index = 1; index < argc; index++) {
        const char *argument = argv[index];
        const char *value = index + 1 < argc ? argv[index + 1] : NULL;
        if (strcmp(argument, "--throughput") == 0) { mode = THROUGHPUT; continue; }
        if (strcmp(argument, "--handshakes") == 0) { mode = HANDSHAKES; continue; }
        if (value == NULL) fail(USAGE);
        if (strcmp(argument, "--port") == 0) port = atoi(value);
        else if (strcmp(argument, "--connections") == 0) connection_count = atoi(value);
        else if (strcmp(argument, "--seconds") == 0) seconds = atof(value);
        else if (strcmp(argument, "--warmup") == 0) warmup = atof(value);
        else if (strcmp(argument, "--size") == 0) message_size = atoi(value);
        else if (strcmp(argument, "--server-pid") == 0) server_pid = atoi(value);
        else if (strcmp(argument, "--ca") == 0) ca = value;
        else if (strcmp(argument, "--groups") == 0) groups = value;
        else fail(USAGE);
        index++;
    }
    if (port <= 0 || port > 65535) fail("--port must be 1...65535");
    if (connection_count < 1 || connection_count > 10000) fail("--connections must be 1...10000");
    if (message_size < 1 || message_size > MAX_MESSAGE) fail("--size must be 1...65536");
    if (seconds <= 0 || seconds > 600 || warmup < 0 || warmup > 60) fail("--seconds must be in (0, 600], --warmup in [0, 60]");
    if (mode == HANDSHAKES) latency.bucket_ns = 1000;

    context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) fail_openssl("SSL_CTX_new");
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    // No resumption: no ticket asked for, no session kept (the client
    // session cache is off by default and no session is ever set).
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (groups != NULL && SSL_CTX_set1_groups_list(context, groups) != 1) fail_openssl("--groups");
    if (ca != NULL) {
        if (SSL_CTX_load_verify_locations(context, ca, NULL) != 1) fail_openssl("--ca");
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    } else {
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, NULL);
    }

    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    signal(SIGPIPE, SIG_IGN);
    for (int offset = 0; offset < CHUNK; offset++) chunk[offset] = (unsigned char)(offset & 0xff);
    connections = calloc((size_t)connection_count, sizeof *connections);
    if (connections == NULL) fail("out of memory");
    for (int index = 0; index < connection_count; index++) {
        connections[index].fd = -1;
        connections[index].echo = malloc((size_t)message_size);
        if (connections[index].echo == NULL) fail("out of memory");
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) fail_errno("epoll_create1");
    memset(&server_address, 0, sizeof server_address);
    server_address.sin_family = AF_INET;
    server_address.sin_port = htons((uint16_t)port);
    server_address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    last_progress = measure_now_ns();

    if (mode == HANDSHAKES) {
        for (int index = 0; index < connection_count; index++) open_connection(index);
    } else {
        connect_all();
        for (int index = 0; index < connection_count; index++) {
            if (mode == THROUGHPUT) {
                pump(index);
            } else {
                send_message(index);
            }
            set_interest(index, EPOLLIN | (connections[index].wants_write ? EPOLLOUT : 0));
        }
    }

    uint64_t started = measure_now_ns();
    uint64_t measure_from = started + (uint64_t)(warmup * 1e9);
    uint64_t measure_until = 0;   // S seconds after the window really opened
    int64_t server_cpu_start = 0, server_cpu_end = 0;
    double client_cpu_start = 0, client_cpu_end = 0;
    uint64_t window_start = 0, window_end = 0;
    for (;;) {
        uint64_t now = measure_now_ns();
        if (!measuring && now >= measure_from) {
            measuring = 1;
            memset(histogram, 0, sizeof histogram);
            round_trips = bytes = handshakes = 0;
            server_cpu_start = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_start = measure_self_cpu_seconds();
            window_start = measure_now_ns();
            measure_until = window_start + (uint64_t)(seconds * 1e9);
        } else if (measuring && now >= measure_until) {
            window_end = measure_now_ns();
            server_cpu_end = server_pid ? measure_process_cpu_ns(server_pid) : 0;
            client_cpu_end = measure_self_cpu_seconds();
            break;
        }
        uint64_t boundary = measuring ? measure_until : measure_from;
        uint64_t wait_ms = (boundary - now) / 1000000u + 1;
        poll_once(wait_ms < 1000 ? (int)wait_ms : 1000);
    }

    double window = (double)(window_end - window_start) / 1e9;
    double server_cpu = server_pid && server_cpu_start >= 0 && server_cpu_end >= 0 ? (double)(server_cpu_end - server_cpu_start) / 1e9 : -1;
    double server_cpu_pct = server_cpu >= 0 ? 100.0 * server_cpu / window : -1;
    double client_cpu_pct = 100.0 * (client_cpu_end - client_cpu_start) / window;
    long rss = server_pid ? measure_process_status_kib(server_pid, "VmRSS") : -1;
    if (mode == THROUGHPUT) {
        double mebibytes = (double)bytes / (1024.0 * 1024.0);
        printf("mode=throughput connections=%d seconds=%.3f bytes=%llu mib_per_s=%.1f server_cpu_pct=%.1f server_cpu_ms_per_gib=%.1f server_rss_kib=%ld client_cpu_pct=%.1f %s\n",
               connection_count, window, (unsigned long long)bytes, mebibytes / window, server_cpu_pct,
               server_cpu >= 0 && bytes > 0 ? 1000.0 * server_cpu / (mebibytes / 1024.0) : -1,
               rss, client_cpu_pct, negotiated);
    } else if (mode == HANDSHAKES) {
        printf("mode=handshakes connections=%d size=%d seconds=%.3f handshakes=%llu handshakes_per_s=%.0f p50_us=%.1f p99_us=%.1f server_cpu_pct=%.1f server_cpu_us_per_handshake=%.1f server_rss_kib=%ld client_cpu_pct=%.1f %s\n",
               connection_count, message_size, window, (unsigned long long)handshakes, (double)handshakes / window,
               latency_percentile_us(&latency, handshakes, 0.50), latency_percentile_us(&latency, handshakes, 0.99), server_cpu_pct,
               server_cpu >= 0 && handshakes > 0 ? 1e6 * server_cpu / (double)handshakes : -1,
               rss, client_cpu_pct, negotiated);
    } else {
        printf("mode=pingpong connections=%d size=%d seconds=%.3f round_trips=%llu rt_per_s=%.0f p50_us=%.1f p99_us=%.1f server_cpu_pct=%.1f server_cpu_us_per_rt=%.2f server_rss_kib=%ld client_cpu_pct=%.1f %s\n",
               connection_count, message_size, window, (unsigned long long)round_trips, (double)round_trips / window,
               latency_percentile_us(&latency, round_trips, 0.50), latency_percentile_us(&latency, round_trips, 0.99), server_cpu_pct,
               server_cpu >= 0 && round_trips > 0 ? 1e6 * server_cpu / (double)round_trips : -1,
               rss, client_cpu_pct, negotiated);
    }
    fflush(stdout);
    for (int index = 0; index < connection_count; index++) {
        if (connections[index].ssl != NULL) SSL_free(connections[index].ssl);
        if (connections[index].fd >= 0) close(connections[index].fd);
        free(connections[index].echo);
    }
    SSL_CTX_free(context);
    return round_trips > 0 || bytes > 0 || handshakes > 0 ? 0 : 1;
}
