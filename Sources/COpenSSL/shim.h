#ifndef RXUV_COPENSSL_SHIM_H
#define RXUV_COPENSSL_SHIM_H
/* The system's OpenSSL 3 for RxUVTLS. OpenSSL spells many of its calls as
   macros over SSL_ctrl / SSL_CTX_ctrl / BIO_ctrl, and builds option bits with
   SSL_OP_BIT; Swift imports neither, so each one RxUVTLS uses is a static
   inline function or constant here, named after the macro with an rxuv_
   prefix. Nothing else lives in this header. */
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static const uint64_t rxuv_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t rxuv_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const unsigned long rxuv_XN_FLAG_RFC2253 = XN_FLAG_RFC2253;

static inline int rxuv_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int rxuv_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

static inline long rxuv_SSL_CTX_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

static inline long rxuv_SSL_CTX_set_session_cache_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_session_cache_mode(context, mode);
}

static inline int rxuv_SSL_CTX_add1_chain_cert(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

static inline int rxuv_SSL_CTX_set_tlsext_servername_callback(SSL_CTX *context, int (*callback)(SSL *, int *, void *), void *argument) {
    if (SSL_CTX_set_tlsext_servername_callback(context, callback) != 1) {
        return 0;
    }
    return (int)SSL_CTX_set_tlsext_servername_arg(context, argument);
}

static inline int rxuv_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int rxuv_SSL_CTX_set1_groups_list(SSL_CTX *context, const char *groups) {
    return (int)SSL_CTX_set1_groups_list(context, groups);
}

static inline void rxuv_BIO_set_mem_eof_return(BIO *bio, int value) {
    (void)BIO_set_mem_eof_return(bio, value);
}

static inline int rxuv_sk_GENERAL_NAME_num(const GENERAL_NAMES *names) {
    return sk_GENERAL_NAME_num(names);
}

static inline GENERAL_NAME *rxuv_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}

static inline void rxuv_GENERAL_NAMES_free(GENERAL_NAMES *names) {
    GENERAL_NAMES_free(names);
}

static inline void rxuv_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

#endif
