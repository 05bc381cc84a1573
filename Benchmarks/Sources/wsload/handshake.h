// The opening handshake's arithmetic, written for wsload: SHA-1 (FIPS
// 180-4) and base64 (RFC 4648), the upgrade request and the check of its
// answer's Sec-WebSocket-Accept (RFC 6455, section 4).
#ifndef WSLOAD_HANDSHAKE_H
#define WSLOAD_HANDSHAKE_H

#include <stddef.h>

/// The 20-byte SHA-1 digest of `length` bytes of `data`.
void sha1(const unsigned char *data, size_t length, unsigned char digest[20]);

/// `length` bytes as base64 with padding, NUL-terminated, at `out`.
void base64(const unsigned char *data, size_t length, char *out);

/// The Sec-WebSocket-Accept a server must answer the key `key` with (28
/// characters and a NUL).
void accept_for(const char *key, char out[29]);

/// Writes the upgrade request for `path` on `port` at `out` (at most
/// `size` bytes, 512 are enough for a path of 256), with the key made of the
/// 16 bytes of `nonce`, which it also writes at `key` (24 characters and a
/// NUL); returns the request's length.
int upgrade_request(char *out, size_t size, const char *path, int port, const unsigned char nonce[16], char key[25]);

/// Checks the server's answer in `head` (NUL-terminated) to the request
/// made with `key`: returns 0 while its head is incomplete, else the head's
/// length once it is a 101 with the right Sec-WebSocket-Accept; sets
/// `*problem` when it is not.
size_t upgrade_answer(const char *head, const char *key, const char **problem);

#endif
