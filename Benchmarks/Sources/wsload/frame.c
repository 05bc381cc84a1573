// WebSocket frames for wsload (frame.h).
#include "frame.h"

#include <string.h>

size_t frame_write(unsigned char *out, int opcode, const unsigned char *payload, size_t length, uint32_t mask) {
    size_t header = 2;
    out[0] = (unsigned char)(0x80 | opcode);
    if (length < 126) {
        out[1] = (unsigned char)(0x80 | length);
    } else if (length < 65536) {
        out[1] = 0x80 | 126; out[2] = (unsigned char)(length >> 8); out[3] = (unsigned char)length; header = 4;
    } else {
        out[1] = 0x80 | 127;
        for (int i = 0; i < 8; i++) out[2 + i] = (unsigned char)((uint64_t)length >> (56 - 8 * i));
        header = 10;
    }
    unsigned char *key = out + header, *body = out + header + 4;
    memcpy(key, &mask, 4);
    uint64_t key64 = (uint64_t)mask << 32 | mask;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, payload + i, 8);
        word ^= key64;
        memcpy(body + i, &word, 8);
    }
    for (; i < length; i++) body[i] = payload[i] ^ key[i & 3];
    return header + 4 + length;
}

int frame_header(const unsigned char *data, size_t available, size_t *header, uint64_t *length, const char **problem) {
    if (available < 2) return 0;
    if (data[1] & 0x80) { *problem = "a server frame is masked"; return 0; }
    if (data[0] & 0x70) { *problem = "a server frame has reserved bits set"; return 0; }
    *header = 2;
    *length = data[1] & 0x7f;
    if (*length == 126) {
        if (available < 4) return 0;
        *length = (uint64_t)data[2] << 8 | data[3];
        *header = 4;
    } else if (*length == 127) {
        if (available < 10) return 0;
        *length = 0;
        for (int i = 0; i < 8; i++) *length = *length << 8 | data[2 + i];
        *header = 10;
    }
    return 1;
}
