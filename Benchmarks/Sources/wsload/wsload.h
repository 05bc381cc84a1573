// wsload's shared parts: the connections and what the reading, writing
// and connecting code (main.c, connections.c) call of each other.
#ifndef WSLOAD_H
#define WSLOAD_H

#include <stddef.h>
#include <stdint.h>

enum {
    MAX_TEXT = 4096, MAX_FRAME = 1 << 20, HEAD_ROOM = 14, CONNECT_BATCH = 64, MAX_EVENTS = 1024,
    BUCKET_NS = 200, BUCKETS = 2500000,  // latency histogram: 200 ns buckets up to 500 ms
    CONNECTING = 0, UPGRADING, OPEN, CLOSE_SENT, DONE,
};

typedef struct {
    int fd, state, gathering, gather_opcode, pong_length;
    unsigned char *in;               // bytes read and not yet parsed
    size_t in_length, in_capacity;
    unsigned char *gather;           // a fragmented message's payload so far
    size_t gather_length;
    uint64_t sequence, sent_at;      // the next echo's number; when its message went out
    uint64_t frames_sent;            // throughput: frames written whole
    unsigned char *out;              // throughput: the frame being written
    size_t out_length, out_offset;
    unsigned char pong[125];         // throughput: a pong to send between frames
} connection;

extern connection *connections;
extern int connection_count, throughput, epoll_fd;
/// When an echo (or a handshake) last completed, for `check_stall`.
extern uint64_t last_progress;
/// Connections whose Close the server answered.
extern uint64_t closed_answered;

void fail(const char *what);
void fail_errno(const char *what);
uint64_t next_random(void);
/// Fails the run after 10 seconds without progress.
void check_stall(void);
void send_small(connection *peer, int opcode, const unsigned char *payload, size_t length);
int receive(int index, int until_again);
void pump(int index, int stopping);

/// Opens and upgrades every connection (connections.c).
void connect_all(int port, const char *path);
/// Sends a Close on every connection and reads until each is answered.
void close_all(void);

#endif
