// The opening handshake of wsload: SHA-1, base64, the request and the
// check of its answer (handshake.h).
#define _GNU_SOURCE
#include "handshake.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static uint32_t rotate(uint32_t value, int bits) { return (value << bits) | (value >> (32 - bits)); }

static void sha1_block(uint32_t hash[5], const unsigned char *block) {
    uint32_t words[80];
    for (int i = 0; i < 16; i++)
        words[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 80; i++) words[i] = rotate(words[i - 3] ^ words[i - 8] ^ words[i - 14] ^ words[i - 16], 1);
    uint32_t a = hash[0], b = hash[1], c = hash[2], d = hash[3], e = hash[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
        else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
        else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
        else { f = b ^ c ^ d; k = 0xCA62C1D6; }
        uint32_t next = rotate(a, 5) + f + e + k + words[i];
        e = d; d = c; c = rotate(b, 30); b = a; a = next;
    }
    hash[0] += a; hash[1] += b; hash[2] += c; hash[3] += d; hash[4] += e;
}

void sha1(const unsigned char *data, size_t length, unsigned char digest[20]) {
    uint32_t hash[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t offset = 0;
    for (; offset + 64 <= length; offset += 64) sha1_block(hash, data + offset);
    unsigned char tail[128] = {0};
    size_t rest = length - offset, tail_length = rest + 9 <= 64 ? 64 : 128;
    memcpy(tail, data + offset, rest);
    tail[rest] = 0x80;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[tail_length - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t block = 0; block < tail_length; block += 64) sha1_block(hash, tail + block);
    for (int i = 0; i < 20; i++) digest[i] = (unsigned char)(hash[i / 4] >> (24 - 8 * (i % 4)));
}

void base64(const unsigned char *data, size_t length, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < length; i += 3) {
        uint32_t group = (uint32_t)data[i] << 16;
        if (i + 1 < length) group |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < length) group |= data[i + 2];
        *out++ = alphabet[group >> 18 & 63];
        *out++ = alphabet[group >> 12 & 63];
        *out++ = i + 1 < length ? alphabet[group >> 6 & 63] : '=';
        *out++ = i + 2 < length ? alphabet[group & 63] : '=';
    }
    *out = 0;
}

/// The Sec-WebSocket-Accept a server must answer `key` with.
void accept_for(const char *key, char out[29]) {
    char joined[128];
    unsigned char digest[20];
    int length = snprintf(joined, sizeof joined, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    sha1((const unsigned char *)joined, (size_t)length, digest);
    base64(digest, 20, out);
}

int upgrade_request(char *out, size_t size, const char *path, int port, const unsigned char nonce[16], char key[25]) {
    base64(nonce, 16, key);
    return snprintf(out, size, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, port, key);
}

size_t upgrade_answer(const char *head, const char *key, const char **problem) {
    static const char name[] = "\r\nSec-WebSocket-Accept:";
    const char *end = strstr(head, "\r\n\r\n"), *field = strcasestr(head, name);
    if (end == NULL) return 0;
    char expected[29];
    accept_for(key, expected);
    if (strncmp(head, "HTTP/1.1 101 ", 13) != 0) *problem = "the server did not answer the upgrade with 101";
    else if (field == NULL || field > end) *problem = "no Sec-WebSocket-Accept in the server's 101";
    else {
        field += sizeof name - 1;
        while (*field == ' ' || *field == '\t') field++;
        if (strncmp(field, expected, 28) != 0 || (field[28] != '\r' && field[28] != ' ')) *problem = "a wrong Sec-WebSocket-Accept";
    }
    return (size_t)(end + 4 - head);
}
