internal import COpenSSL

/// OpenSSL's failures as `TLSError`s: what its thread-local error queue and
/// a connection's verification result say, read once and classified here,
/// in one place.
enum OpenSSLFailure {
    /// The first error on this thread's queue (the cause; later ones are
    /// consequences) and the text of all of them, which empties the queue.
    static func drain() -> (reason: Int32, text: String)? {
        var first: UInt = 0
        var texts: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            if first == 0 { first = code }
            if let text = ERR_reason_error_string(code) {
                let words = String(cString: text)
                if !texts.contains(words) { texts.append(words) }
            } else {
                texts.append("error \(ERR_GET_LIB(code)):\(ERR_GET_REASON(code))")
            }
        }
        guard first != 0 else { return nil }
        return (ERR_GET_REASON(first), texts.joined(separator: "; "))
    }

    /// Forgets whatever an earlier call left on this thread's queue, so the
    /// next failure is read alone.
    static func clear() {
        // Peeking is cheap; clearing walks every slot of the queue.
        if ERR_peek_error() != 0 {
            ERR_clear_error()
        }
    }

    /// The error of a failed `SSL_do_handshake`, `SSL_read` or `SSL_write`
    /// on `ssl` (`SSL_get_error` said `sslError`).
    static func error(_ sslError: Int32, ssl: OpaquePointer, operation: String, inHandshake: Bool) -> TLSError {
        guard let (reason, text) = drain() else {
            if sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_ZERO_RETURN {
                return TLSError(code: .uncleanShutdown, reason: "the peer closed the connection", operation: operation)
            }
            return TLSError(code: inHandshake ? .handshakeFailure : .protocolError, reason: "SSL_get_error \(sslError)", operation: operation)
        }
        if reason == SSL_R_CERTIFICATE_VERIFY_FAILED {
            let result = Int32(truncatingIfNeeded: SSL_get_verify_result(ssl))
            let detail = String(cString: X509_verify_cert_error_string(Int(result)))
            return TLSError(code: verificationCode(result), reason: "\(text): \(detail)", operation: operation)
        }
        return TLSError(code: code(reason: reason, inHandshake: inHandshake), reason: text, operation: operation)
    }

    /// An error of loading a configuration: what OpenSSL says, or `what`.
    static func configuration(_ what: String, _ origin: String? = nil) -> TLSError {
        let detail = drain().map { ": \($0.text)" } ?? ""
        return TLSError(code: .invalidConfiguration, reason: "\(what)\(detail)", operation: "TLSContext", address: origin)
    }

    /// The code of a failed certificate verification (`X509_V_ERR_*`).
    static func verificationCode(_ result: Int32) -> TLSError.Code {
        switch result {
        case X509_V_ERR_CERT_HAS_EXPIRED: .certificateExpired
        case X509_V_ERR_CERT_NOT_YET_VALID: .certificateNotYetValid
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: .hostnameMismatch
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN: .selfSignedCertificate
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            .unknownCA
        default: .certificateVerificationFailed
        }
    }

    /// The code of an OpenSSL reason (`SSL_R_*`; from 1000 on, an alert the
    /// peer sent: `SSL_AD_REASON_OFFSET` plus the alert's number).
    static func code(reason: Int32, inHandshake: Bool) -> TLSError.Code {
        switch reason {
        case SSL_R_UNEXPECTED_EOF_WHILE_READING: return .uncleanShutdown
        case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE, SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED: return .certificateRequired
        case SSL_R_NO_SHARED_CIPHER: return .noSharedCipher
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
            return .protocolVersion
        case SSL_R_WRONG_VERSION_NUMBER, SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST, SSL_R_PACKET_LENGTH_TOO_LONG:
            return .notTLS
        case SSL_R_NO_RENEGOTIATION, SSL_R_TLSV1_ALERT_NO_RENEGOTIATION, SSL_R_UNSAFE_LEGACY_RENEGOTIATION_DISABLED:
            return .renegotiationRefused
        case SSL_R_NO_APPLICATION_PROTOCOL, SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL: return .noApplicationProtocol
        case SSL_R_TLSV1_ALERT_UNKNOWN_CA: return .unknownCA
        case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED: return .certificateExpired
        case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE, SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE,
            SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED, SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN,
            SSL_R_TLSV1_ALERT_ACCESS_DENIED:
            return .certificateRejected
        case SSL_R_DECRYPTION_FAILED, SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC, SSL_R_SSLV3_ALERT_BAD_RECORD_MAC,
            SSL_R_RECORD_LENGTH_MISMATCH, SSL_R_ENCRYPTED_LENGTH_TOO_LONG, SSL_R_DATA_LENGTH_TOO_LONG,
            SSL_R_BAD_LENGTH, SSL_R_BAD_PACKET_LENGTH, SSL_R_LENGTH_MISMATCH, SSL_R_UNEXPECTED_RECORD,
            SSL_R_TLSV1_ALERT_DECODE_ERROR, SSL_R_EXCESSIVE_MESSAGE_SIZE, SSL_R_UNEXPECTED_MESSAGE:
            return .badRecord
        case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE: return .handshakeFailure
        default: return inHandshake ? .handshakeFailure : .protocolError
        }
    }
}
