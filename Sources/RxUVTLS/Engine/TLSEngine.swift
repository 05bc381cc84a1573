internal import COpenSSL
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// One TLS connection's protocol state: an OpenSSL `SSL` between a memory
/// BIO for the peer's ciphertext and a `TLSOutputBIO` for its own, with no
/// I/O of its own. Ciphertext from the peer goes in (`feed`), ciphertext
/// for the peer comes out (`takeOutput`); in between, `handshake`, `read`
/// and `write` move plaintext, as Node's TLSWrap and uvloop's SSLProtocol
/// drive OpenSSL. `TLSStream` drives one over a stream; tests drive two
/// against each other in memory. Each call into the `SSL` starts from an
/// empty error queue (`OpenSSLFailure.clear`), so that its failure is read
/// alone.
///
/// Not thread-safe: one thread (the stream's loop thread) at a time.
final class TLSEngine {
    /// Which end of the handshake this is.
    enum Role {
        case client
        case server
    }

    /// What a handshake step came to.
    enum HandshakeStep {
        /// The handshake is done.
        case done
        /// It needs more ciphertext from the peer.
        case needsInput
        /// It failed; the alert for the peer, if any, is in the output.
        case failed(TLSError)
    }

    /// What a read came to.
    enum ReadOutcome {
        /// This many plaintext bytes were read.
        case bytes(Int)
        /// Nothing until more ciphertext arrives.
        case needsInput
        /// The peer sent `close_notify`: no more plaintext will come.
        case closed
        /// The connection failed.
        case failed(TLSError)
    }

    let role: Role
    private let ssl: OpaquePointer
    /// Ciphertext from the peer, read by OpenSSL (owned by `ssl`).
    private let input: OpaquePointer
    // Unchecked exclusivity, for the two below: the engine is used on one
    // thread, and `collect` (called back by OpenSSL inside `write`,
    // `handshake`, `read` and `shutdown`) is the only access made while
    // another call is under way, to `output` and `expectedOutput` alone,
    // which no caller holds across a call into the `SSL`; the runtime's
    // dynamic checks cost six a message.

    /// Ciphertext for the peer, as OpenSSL wrote it through its
    /// `TLSOutputBIO` (`collect`), in the buffer `takeOutput` hands out:
    /// the records are copied once, into the memory the transport writes.
    @exclusivity(unchecked) private var output: ByteBuffer?
    /// How many bytes the call into the `SSL` under way may write, at
    /// least: a write's plaintext and its records' overhead, so that its
    /// records land in room made once (`collect`).
    @exclusivity(unchecked) private var expectedOutput = 0
    /// The context `ssl` was made from: its callbacks point at it, so it
    /// lives as long as the connection.
    private let context: OpenSSLContext
    private var shutdownSent = false
    /// The peer's side ended (`endOfInput`): a read must report how.
    private var inputEnded = false

    /// A connection from `context`. A client sends `serverName` (SNI,
    /// unless it is an IP address) and checks the server's certificate
    /// against it (`SSL_set1_host`, or the address for an IP) when
    /// verification is on.
    init(context: OpenSSLContext, role: Role, serverName: String? = nil) throws(TLSError) {
        OpenSSLFailure.clear()
        guard let ssl = SSL_new(context.raw) else {
            throw OpenSSLFailure.configuration("SSL_new failed")
        }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw OpenSSLFailure.configuration("BIO_new failed")
        }
        // An empty input means "wait for more", not end of input.
        rxuv_BIO_set_mem_eof_return(input, -1)
        self.ssl = ssl
        self.input = input
        self.context = context
        self.role = role
        TLSResources.connectionMade()
        // From here on `deinit` frees the `SSL`, and with it the BIOs it
        // was given.
        guard let output = TLSOutputBIO.make(for: self) else {
            BIO_free(input)
            throw OpenSSLFailure.configuration("BIO_new failed")
        }
        SSL_set_bio(ssl, input, output)
        try configure(serverName: serverName)
    }

    deinit {
        SSL_free(ssl)
        TLSResources.connectionFreed()
    }

    private func configure(serverName: String?) throws(TLSError) {
        let verification = context.configuration.peerVerification
        switch role {
        case .server:
            SSL_set_accept_state(ssl)
            switch verification {
            case .none: SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
            case .ifPresented: SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
            case .required: SSL_set_verify(ssl, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
            }
        case .client:
            SSL_set_connect_state(ssl)
            SSL_set_verify(ssl, verification == .none ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nil)
            guard let serverName, !serverName.isEmpty else { break }
            let isAddress = Self.isIPAddress(serverName)
            if !isAddress, rxuv_SSL_set_tlsext_host_name(ssl, serverName) != 1 {
                throw OpenSSLFailure.configuration("cannot send the server name \(serverName)")
            }
            if verification != .none {
                let checked =
                    isAddress
                    ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
                    : SSL_set1_host(ssl, serverName)
                guard checked == 1 else {
                    throw OpenSSLFailure.configuration("cannot check the server name \(serverName)")
                }
            }
        }
    }

    /// Hands OpenSSL ciphertext the peer sent.
    func feed(_ bytes: ByteBuffer) {
        bytes.withUnsafeBytes { memory in
            var offset = 0
            while offset < memory.count {
                let chunk = Int32(min(memory.count - offset, Int(Int32.max)))
                let written = BIO_write(input, memory.baseAddress! + offset, chunk)
                guard written > 0 else { break }
                offset += Int(written)
            }
        }
    }

    /// The peer's side of the connection ended: OpenSSL may now read what
    /// is left and then reports the end (a clean `close_notify` or an
    /// unexpected EOF).
    func endOfInput() {
        inputEnded = true
        rxuv_BIO_set_mem_eof_return(input, 0)
    }

    /// Whether a read can come to more than `needsInput`: ciphertext fed
    /// and not yet read, plaintext or a record OpenSSL holds, or the end of
    /// input still to report. With none of them `SSL_read` can only ask
    /// for more input, and asking it costs as much as a small record's
    /// decryption (the empty BIO's read, `SSL_get_error`, the error
    /// queue twice).
    private var mayRead: Bool {
        inputEnded || BIO_ctrl_pending(input) > 0 || SSL_has_pending(ssl) == 1
    }

    /// Bytes OpenSSL wrote for the peer (`TLSOutputBIO`): appended to the
    /// output, in room for what the call under way is expected to write.
    func collect(_ bytes: UnsafeRawBufferPointer) {
        if output == nil {
            output = ByteBuffer(reservingCapacity: max(bytes.count, expectedOutput))
        }
        output?.append(bytes)
    }

    /// The most a record adds to its plaintext: header, explicit nonce,
    /// tag or MAC and padding of every suite OpenSSL offers (TLS 1.3 adds
    /// 22 bytes; TLS 1.2's CBC suites with SHA-384 up to 85).
    private static let recordOverhead = 96
    /// The most plaintext one record carries.
    private static let recordPlaintext = 16 * 1024
    /// Room for a handshake step's flight: a server's hello, certificate
    /// chain and finished, or a client's answer, and session tickets.
    private static let handshakeOutput = 4 * 1024

    /// Advances the handshake with what has been fed.
    func handshake() -> HandshakeStep {
        OpenSSLFailure.clear()
        expectedOutput = Self.handshakeOutput
        defer { expectedOutput = 0 }
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .done }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
            return .needsInput
        }
        return .failed(OpenSSLFailure.error(error, ssl: ssl, operation: "TLS handshake", inHandshake: true))
    }

    /// Reads plaintext into `buffer`: as much as the ciphertext fed so far
    /// holds, up to the buffer's size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        guard mayRead else { return .needsInput }
        OpenSSLFailure.clear()
        var count = 0
        if SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count) == 1 {
            return .bytes(count)
        }
        let error = SSL_get_error(ssl, 0)
        switch error {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needsInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            return .failed(OpenSSLFailure.error(error, ssl: ssl, operation: "TLS read", inHandshake: false))
        }
    }

    /// Encrypts `bytes` into the output. The output takes every byte
    /// OpenSSL writes, so a write after the handshake takes all of `bytes`
    /// or fails.
    func write(_ bytes: ByteBuffer) -> TLSError? {
        guard !bytes.isEmpty else { return nil }
        OpenSSLFailure.clear()
        let records = (bytes.count + Self.recordPlaintext - 1) / Self.recordPlaintext
        expectedOutput = bytes.count + records * Self.recordOverhead
        if let held = output?.count {
            output?.reserveCapacity(held + expectedOutput)
        }
        defer { expectedOutput = 0 }
        return bytes.withUnsafeBytes { memory -> TLSError? in
            var written = 0
            if SSL_write_ex(ssl, memory.baseAddress, memory.count, &written) == 1, written == memory.count {
                return nil
            }
            let error = SSL_get_error(ssl, 0)
            return OpenSSLFailure.error(error, ssl: ssl, operation: "TLS write", inHandshake: false)
        }
    }

    /// Queues `close_notify` (once): the peer learns that no more data comes.
    func shutdown() {
        guard !shutdownSent else { return }
        shutdownSent = true
        OpenSSLFailure.clear()
        _ = SSL_shutdown(ssl)
        OpenSSLFailure.clear()
    }

    /// Takes the ciphertext waiting to go to the peer, in one buffer; `nil`
    /// when there is none.
    func takeOutput() -> ByteBuffer? {
        defer { output = nil }
        return output
    }

    /// What the finished handshake agreed on.
    func session() -> TLSSession {
        var alpn: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpn, &alpnLength)
        let applicationProtocol = alpn.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        let serverName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? ""
        var certificate: TLSCertificate?
        if let peer = SSL_get1_peer_certificate(ssl) {
            certificate = TLSCertificate(peer)
            X509_free(peer)
        }
        return TLSSession(
            protocolVersion: TLSVersion(openSSLVersion: SSL_version(ssl)) ?? .tls12,
            cipherSuite: cipher,
            applicationProtocol: applicationProtocol?.isEmpty == true ? nil : applicationProtocol,
            serverName: serverName,
            peerCertificate: certificate,
            isResumed: SSL_session_reused(ssl) == 1
        )
    }

    /// Whether `name` is a numeric IPv4 or IPv6 address.
    static func isIPAddress(_ name: String) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, name, &scratch) == 1 || inet_pton(AF_INET6, name, &scratch) == 1
    }
}
