// uv-tls-echo: the floor for the TLS echo benchmarks, a TLS echo server in
// plain C on libuv and OpenSSL 3, one loop, one thread.
//
//   uv-tls-echo --cert FILE --key FILE [--port N] [--tls12]
//
// Every connection has an SSL object between two memory BIOs, the way Node's
// TLSWrap drives OpenSSL: each read's ciphertext goes into the input BIO,
// the handshake runs until it is done, then every decrypted byte is read
// into one reused 64 KiB buffer and written straight back through the SSL;
// whatever ciphertext the output BIO then holds leaves in one write
// (uv_try_write, and only what the kernel did not take at once is copied
// into a uv_write request). Reads land in one reused 64 KiB buffer owned by
// the loop, as in uv-echo's default mode.
//
// TLS 1.2 and 1.3 (--tls12: at most 1.2), no renegotiation, no compression,
// SSL_MODE_RELEASE_BUFFERS. TCP_NODELAY, a backlog of 128. Reading pauses
// while more than 64 KiB waits to be written and resumes at 32 KiB (RxUV's
// and uv-echo's watermarks). A
// close_notify is answered with one and a TCP shutdown; EOF, a reset or a
// TLS error closes the connection.
//
// Prints "port N" once listening on 127.0.0.1 (as uv-echo does); SIGTERM or
// SIGINT closes every handle, so the loop ends and the process exits 0.

#include <uv.h>

#include "EchoFloor.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    READ_BUFFER_SIZE = 64 * 1024,
    HIGH_WATERMARK = 64 * 1024,
    LOW_WATERMARK = 32 * 1024,
};

typedef struct {
    uv_tcp_t handle;   // first, so that the handle's address is the connection's
    SSL *ssl;          // owns both BIOs
    BIO *input;        // ciphertext read from the peer
    BIO *output;       // ciphertext to send to the peer
    int paused;        // reading stopped for backpressure
    int shutting_down; // close_notify answered, waiting for the TCP shutdown
} tls_connection;

typedef struct {
    uv_write_t request;
    uv_buf_t buffer;
} write_request;

/// What one pass over the input leaves the connection in.
enum { TLS_OPEN, TLS_CLOSE_NOTIFY, TLS_FAILED };

static char read_buffer[READ_BUFFER_SIZE];   // ciphertext from uv reads
static char plain_buffer[READ_BUFFER_SIZE];  // plaintext from SSL_read
static char *out_buffer;                     // ciphertext from the output BIO, grown as needed
static size_t out_capacity;
static SSL_CTX *context;
static uv_loop_t *loop;
static uv_tcp_t server;

static void fail_openssl(const char *what, const char *file) {
    char text[256] = "";
    unsigned long code = ERR_get_error();
    if (code != 0) ERR_error_string_n(code, text, sizeof text);
    fprintf(stderr, "uv-tls-echo: %s%s%s: %s\n", what, file ? " " : "", file ? file : "", text[0] ? text : "failed");
    exit(1);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    buffer->base = read_buffer;
    buffer->len = READ_BUFFER_SIZE;
}

static void on_close(uv_handle_t *handle) {
    tls_connection *connection = (tls_connection *)handle;
    SSL_free(connection->ssl);   // NULL-safe; frees both BIOs
    free(connection);
}

static void close_connection(tls_connection *connection) {
    if (!uv_is_closing((uv_handle_t *)&connection->handle)) {
        uv_close((uv_handle_t *)&connection->handle, on_close);
    }
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer);

static void on_write(uv_write_t *request, int status) {
    write_request *write = (write_request *)request;
    tls_connection *connection = (tls_connection *)request->handle;
    free(write->buffer.base);
    free(write);
    if (status < 0) {
        close_connection(connection);
        return;
    }
    uv_stream_t *stream = (uv_stream_t *)&connection->handle;
    if (connection->paused && !connection->shutting_down && uv_stream_get_write_queue_size(stream) <= LOW_WATERMARK &&
        !uv_is_closing((uv_handle_t *)stream)) {
        connection->paused = 0;
        uv_read_start(stream, on_alloc, on_read);
    }
}

/// Sends everything the output BIO holds in one write: uv_try_write, then
/// a copy of the rest in a uv_write request. Returns -1 if the connection
/// was closed.
static int flush(tls_connection *connection) {
    uv_stream_t *stream = (uv_stream_t *)&connection->handle;
    size_t pending = BIO_ctrl_pending(connection->output);
    if (pending == 0) return 0;
    if (pending > out_capacity) {
        size_t capacity = out_capacity ? out_capacity : READ_BUFFER_SIZE;
        while (capacity < pending) capacity *= 2;
        char *grown = realloc(out_buffer, capacity);
        if (grown == NULL) {
            close_connection(connection);
            return -1;
        }
        out_buffer = grown;
        out_capacity = capacity;
    }
    int count = BIO_read(connection->output, out_buffer, (int)pending);
    if (count != (int)pending) {
        close_connection(connection);
        return -1;
    }
    uv_buf_t whole = uv_buf_init(out_buffer, (unsigned)count);
    int written = uv_try_write(stream, &whole, 1);
    if (written == count) return 0;
    if (written < 0 && written != UV_EAGAIN) {
        close_connection(connection);
        return -1;
    }
    size_t done = written > 0 ? (size_t)written : 0;
    size_t rest = (size_t)count - done;
    write_request *write = malloc(sizeof *write);
    char *copy = malloc(rest);
    if (write == NULL || copy == NULL) {
        free(write);
        free(copy);
        close_connection(connection);
        return -1;
    }
    memcpy(copy, out_buffer + done, rest);
    write->buffer = uv_buf_init(copy, (unsigned)rest);
    int status = uv_write(&write->request, stream, &write->buffer, 1, on_write);
    if (status < 0) {
        free(copy);
        free(write);
        close_connection(connection);
        return -1;
    }
    if (!connection->paused && uv_stream_get_write_queue_size(stream) > HIGH_WATERMARK) {
        connection->paused = 1;
        uv_read_stop(stream);
    }
    return 0;
}

/// Runs the handshake until it is done, then echoes every decrypted byte.
static int process(tls_connection *connection) {
    SSL *ssl = connection->ssl;
    if (!SSL_is_init_finished(ssl)) {
        int result = SSL_do_handshake(ssl);
        if (result != 1) {
            if (SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ) return TLS_OPEN;
            ERR_clear_error();
            return TLS_FAILED;
        }
    }
    for (;;) {
        int count = SSL_read(ssl, plain_buffer, sizeof plain_buffer);
        if (count > 0) {
            // The output BIO grows as needed, so the write is always whole.
            if (SSL_write(ssl, plain_buffer, count) != count) {
                ERR_clear_error();
                return TLS_FAILED;
            }
            continue;
        }
        switch (SSL_get_error(ssl, count)) {
        case SSL_ERROR_WANT_READ:
            return TLS_OPEN;
        case SSL_ERROR_ZERO_RETURN:
            return TLS_CLOSE_NOTIFY;
        default:
            ERR_clear_error();
            return TLS_FAILED;
        }
    }
}

static void on_shutdown(uv_shutdown_t *request, int status) {
    (void)status;
    tls_connection *connection = (tls_connection *)request->handle;
    free(request);
    close_connection(connection);
}

/// The peer sent close_notify: answer with ours, then shut TCP down once
/// everything queued has been written.
static void finish(tls_connection *connection) {
    uv_stream_t *stream = (uv_stream_t *)&connection->handle;
    connection->shutting_down = 1;
    uv_read_stop(stream);
    SSL_shutdown(connection->ssl);
    ERR_clear_error();
    if (flush(connection) < 0) return;
    uv_shutdown_t *request = malloc(sizeof *request);
    if (request == NULL || uv_shutdown(request, stream, on_shutdown) < 0) {
        free(request);
        close_connection(connection);
    }
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    tls_connection *connection = (tls_connection *)stream;
    if (count == 0) return;
    if (count < 0) {
        close_connection(connection);
        return;
    }
    if (connection->shutting_down) return;
    if (BIO_write(connection->input, buffer->base, (int)count) != (int)count) {
        close_connection(connection);
        return;
    }
    int state = process(connection);
    // Whatever the SSL wrote goes out first, a fatal alert included.
    if (flush(connection) < 0) return;
    if (state == TLS_CLOSE_NOTIFY) {
        finish(connection);
    } else if (state == TLS_FAILED) {
        close_connection(connection);
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status < 0) return;
    tls_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) return;
    uv_tcp_init(loop, &connection->handle);
    if (uv_accept(listener, (uv_stream_t *)&connection->handle) < 0) {
        close_connection(connection);
        return;
    }
    connection->ssl = SSL_new(context);
    connection->input = BIO_new(BIO_s_mem());
    connection->output = BIO_new(BIO_s_mem());
    if (connection->ssl == NULL || connection->input == NULL || connection->output == NULL) {
        BIO_free(connection->input);
        BIO_free(connection->output);
        connection->input = connection->output = NULL;
        ERR_clear_error();
        close_connection(connection);
        return;
    }
    // An empty input BIO is "retry later", not EOF.
    BIO_set_mem_eof_return(connection->input, -1);
    BIO_set_mem_eof_return(connection->output, -1);
    SSL_set_bio(connection->ssl, connection->input, connection->output);
    SSL_set_accept_state(connection->ssl);
    uv_tcp_nodelay(&connection->handle, 1);
    uv_read_start((uv_stream_t *)&connection->handle, on_alloc, on_read);
}

static void close_any(uv_handle_t *handle, void *argument) {
    (void)argument;
    if (uv_is_closing(handle)) return;
    if (handle->type == UV_TCP && handle != (uv_handle_t *)&server) {
        uv_close(handle, on_close);
    } else {
        uv_close(handle, NULL);
    }
}

static void on_signal(uv_signal_t *signal_handle, int signum) {
    (void)signum;
    uv_walk(signal_handle->loop, close_any, NULL);
}

static void usage(void) {
    fprintf(stderr, "usage: uv-tls-echo --cert FILE --key FILE [--port N] [--tls12]\n");
    exit(2);
}

int main(int argc, char **argv) {
    int port = 0, tls12 = 0;
    const char *certificate = NULL, *key = NULL;
    for (int index = 1; index < argc; index++) {
        const char *argument = argv[index];
        const char *value = index + 1 < argc ? argv[index + 1] : NULL;
        if (strcmp(argument, "--tls12") == 0) {
            tls12 = 1;
            continue;
        }
        if (value == NULL) usage();
        if (strcmp(argument, "--port") == 0) port = atoi(value);
        else if (strcmp(argument, "--cert") == 0) certificate = value;
        else if (strcmp(argument, "--key") == 0) key = value;
        else usage();
        index++;
    }
    if (certificate == NULL || key == NULL) usage();
    if (port < 0 || port > 65535) {
        fprintf(stderr, "uv-tls-echo: --port must be 0...65535\n");
        return 2;
    }

    context = SSL_CTX_new(TLS_server_method());
    if (context == NULL) fail_openssl("SSL_CTX_new", NULL);
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    if (tls12) SSL_CTX_set_max_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_use_certificate_chain_file(context, certificate) != 1) fail_openssl("cannot load the certificate chain", certificate);
    if (SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1) fail_openssl("cannot load the private key", key);
    if (SSL_CTX_check_private_key(context) != 1) fail_openssl("the key does not match the certificate", key);

    loop = uv_default_loop();
    echo_floor_listen("uv-tls-echo", loop, &server, port, on_connection);
    echo_floor_run(loop, on_signal);
    SSL_CTX_free(context);
    free(out_buffer);
    return 0;
}
