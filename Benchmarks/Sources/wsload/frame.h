// WebSocket frames (RFC 6455, section 5) as wsload sends and reads them:
// a client's masked frame written, a server's frame header parsed.
#ifndef WSLOAD_FRAME_H
#define WSLOAD_FRAME_H

#include <stddef.h>
#include <stdint.h>

enum { OP_CONTINUATION = 0, OP_TEXT = 1, OP_BINARY = 2, OP_CLOSE = 8, OP_PING = 9, OP_PONG = 10 };

/// Writes a final frame of `payload` at `out`, masked with `mask` (room
/// for `length` + 14 bytes); returns its length.
size_t frame_write(unsigned char *out, int opcode, const unsigned char *payload, size_t length, uint32_t mask);

/// Parses the header of the server frame at `data` (`available` bytes):
/// 1 with its length and its payload's when whole, 0 when more is needed
/// or when it is not a server's (masked, or reserved bits set: `*problem`).
int frame_header(const unsigned char *data, size_t available, size_t *header, uint64_t *length, const char **problem);

#endif
