internal import COpenSSL
import RxUV

/// One `SSL_CTX` made from a `TLSConfiguration`: identity, trust, versions,
/// ciphers, ALPN and, for a server with `identitiesByServerName`, one more
/// context per name that the SNI callback switches a connection to.
/// Immutable once made, so shared by every loop's connections (OpenSSL
/// allows `SSL_new` on one context from several threads). Freed when the
/// last connection made from it and its `TLSContext` have let it go.
// @unchecked Sendable: every field is set in init and never changed; the
// SSL_CTX is only read after that.
final class OpenSSLContext: @unchecked Sendable {
    let raw: OpaquePointer
    let configuration: TLSConfiguration
    /// The ALPN protocols in their wire form (length-prefixed), kept alive
    /// as long as the context: the selection callback points into it.
    private let alpn: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes of `alpn` the wire form fills (0: no ALPN).
    private let alpnLength: Int
    /// The contexts of `identitiesByServerName`, by lower-cased name.
    private(set) var byServerName: [String: OpenSSLContext] = [:]

    init(_ configuration: TLSConfiguration) throws(TLSError) {
        OpenSSLFailure.clear()
        guard let raw = SSL_CTX_new(TLS_method()) else {
            throw OpenSSLFailure.configuration("SSL_CTX_new failed")
        }
        self.raw = raw
        self.configuration = configuration
        let wire = Self.alpnWire(configuration.applicationProtocols)
        alpn = .allocate(capacity: max(wire.count, 1))
        _ = alpn.initialize(from: wire)
        alpnLength = wire.count
        TLSResources.contextMade()
        try configure()
        for (name, identity) in configuration.identitiesByServerName {
            var child = configuration
            child.identity = identity
            child.identitiesByServerName = [:]
            byServerName[name.lowercased()] = try OpenSSLContext(child)
        }
        if !byServerName.isEmpty {
            let callback: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _, argument in
                guard let ssl, let argument, let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else {
                    return SSL_TLSEXT_ERR_OK
                }
                let context = Unmanaged<OpenSSLContext>.fromOpaque(argument).takeUnretainedValue()
                if let chosen = context.context(forServerName: String(cString: name)) {
                    _ = SSL_set_SSL_CTX(ssl, chosen.raw)
                }
                return SSL_TLSEXT_ERR_OK
            }
            // Unretained: every connection made from this context keeps it
            // (TLSEngine holds it), so it outlives every callback.
            guard rxuv_SSL_CTX_set_tlsext_servername_callback(raw, callback, Unmanaged.passUnretained(self).toOpaque()) == 1 else {
                throw OpenSSLFailure.configuration("SSL_CTX_set_tlsext_servername_callback failed")
            }
        }
    }

    deinit {
        SSL_CTX_free(raw)
        alpn.deallocate()
        TLSResources.contextFreed()
    }

    /// The context for the server name a client sent: an exact name, else a
    /// `*.` wildcard one label deep.
    func context(forServerName name: String) -> OpenSSLContext? {
        let name = name.lowercased()
        if let exact = byServerName[name] { return exact }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return byServerName["*" + name[dot...]]
    }

    private func configure() throws(TLSError) {
        guard rxuv_SSL_CTX_set_min_proto_version(raw, configuration.minimumVersion.openSSLVersion) == 1 else {
            throw OpenSSLFailure.configuration("minimum version \(configuration.minimumVersion)")
        }
        if let maximum = configuration.maximumVersion {
            guard maximum >= configuration.minimumVersion, rxuv_SSL_CTX_set_max_proto_version(raw, maximum.openSSLVersion) == 1 else {
                throw OpenSSLFailure.configuration("maximum version \(maximum) below the minimum \(configuration.minimumVersion)")
            }
        }
        // No renegotiation either way, no compression (CRIME).
        _ = SSL_CTX_set_options(raw, rxuv_SSL_OP_NO_RENEGOTIATION | rxuv_SSL_OP_NO_COMPRESSION)
        // An idle connection gives its 34 KiB of record buffers back. The
        // chain sent is the one configured: OpenSSL 3 would otherwise look
        // for the issuers in the trust store on every handshake (with the
        // system's store, a directory read each time), as nginx also avoids.
        _ = rxuv_SSL_CTX_set_mode(raw, Int(SSL_MODE_RELEASE_BUFFERS | SSL_MODE_NO_AUTO_CHAIN))
        _ = SSL_CTX_set_session_id_context(raw, "rxuv", 4)
        if let list = configuration.cipherList, SSL_CTX_set_cipher_list(raw, list) != 1 {
            throw OpenSSLFailure.configuration("cipher list \(list)")
        }
        if let suites = configuration.cipherSuites, SSL_CTX_set_ciphersuites(raw, suites) != 1 {
            throw OpenSSLFailure.configuration("cipher suites \(suites)")
        }
        if let groups = configuration.groups, rxuv_SSL_CTX_set1_groups_list(raw, groups) != 1 {
            throw OpenSSLFailure.configuration("groups \(groups)")
        }
        if let identity = configuration.identity {
            try load(identity)
        }
        try loadTrustRoots()
        if alpnLength > 0 {
            // A client offers them (0 is success here)...
            guard SSL_CTX_set_alpn_protos(raw, alpn.baseAddress, UInt32(alpnLength)) == 0 else {
                throw OpenSSLFailure.configuration("ALPN protocols \(configuration.applicationProtocols)")
            }
            // ...a server picks its first that the client offers, or refuses
            // the handshake (RFC 7301's no_application_protocol).
            SSL_CTX_set_alpn_select_cb(
                raw,
                { _, out, outLength, offered, offeredLength, argument in
                    guard let argument, let offered else { return SSL_TLSEXT_ERR_ALERT_FATAL }
                    let context = Unmanaged<OpenSSLContext>.fromOpaque(argument).takeUnretainedValue()
                    let ours = context.alpn
                    var chosen: UnsafeMutablePointer<UInt8>?
                    var chosenLength: UInt8 = 0
                    let answer = SSL_select_next_proto(&chosen, &chosenLength, ours.baseAddress, UInt32(context.alpnLength), offered, offeredLength)
                    guard answer == OPENSSL_NPN_NEGOTIATED, let chosen else { return SSL_TLSEXT_ERR_ALERT_FATAL }
                    out?.pointee = UnsafePointer(chosen)
                    outLength?.pointee = chosenLength
                    return SSL_TLSEXT_ERR_OK
                }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func load(_ identity: TLSIdentity) throws(TLSError) {
        switch identity.certificateChain {
        case .file(let path):
            guard SSL_CTX_use_certificate_chain_file(raw, path) == 1 else {
                throw OpenSSLFailure.configuration("cannot load the certificate chain", path)
            }
        case .bytes(let bytes):
            var certificates = try Self.certificates(bytes, origin: "certificate chain")
            defer { certificates.forEach { X509_free($0) } }
            guard SSL_CTX_use_certificate(raw, certificates.removeFirst()) == 1 else {
                throw OpenSSLFailure.configuration("cannot use the certificate", "PEM bytes")
            }
            for intermediate in certificates where rxuv_SSL_CTX_add1_chain_cert(raw, intermediate) != 1 {
                throw OpenSSLFailure.configuration("cannot add an intermediate certificate", "PEM bytes")
            }
        }
        switch identity.privateKey {
        case .file(let path):
            guard SSL_CTX_use_PrivateKey_file(raw, path, SSL_FILETYPE_PEM) == 1 else {
                throw OpenSSLFailure.configuration("cannot load the private key", path)
            }
        case .bytes(let bytes):
            let key = bytes.withUnsafeBytes { memory -> OpaquePointer? in
                guard let bio = BIO_new_mem_buf(memory.baseAddress, Int32(memory.count)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
            }
            guard let key else {
                throw OpenSSLFailure.configuration("no private key in the PEM bytes", "PEM bytes")
            }
            defer { EVP_PKEY_free(key) }
            guard SSL_CTX_use_PrivateKey(raw, key) == 1 else {
                throw OpenSSLFailure.configuration("cannot use the private key", "PEM bytes")
            }
        }
        guard SSL_CTX_check_private_key(raw) == 1 else {
            throw OpenSSLFailure.configuration("the private key does not match the certificate", identity.privateKey.origin)
        }
    }

    private func loadTrustRoots() throws(TLSError) {
        // Nothing to verify, nothing to load: a server that asks for no
        // client certificate (or a client that checks nothing).
        guard configuration.peerVerification != .none else { return }
        switch configuration.trustRoots {
        case .system:
            guard SSL_CTX_set_default_verify_paths(raw) == 1 else {
                throw OpenSSLFailure.configuration("cannot load the system's trust store")
            }
        case .certificates(.file(let path)):
            guard SSL_CTX_load_verify_locations(raw, path, nil) == 1 else {
                throw OpenSSLFailure.configuration("cannot load the trust roots", path)
            }
            // A server that asks for client certificates names these CAs.
            if let names = SSL_load_client_CA_file(path) {
                SSL_CTX_set_client_CA_list(raw, names)
            }
        case .certificates(.bytes(let bytes)):
            let certificates = try Self.certificates(bytes, origin: "trust roots")
            defer { certificates.forEach { X509_free($0) } }
            let store = SSL_CTX_get_cert_store(raw)
            for certificate in certificates where X509_STORE_add_cert(store, certificate) != 1 {
                throw OpenSSLFailure.configuration("cannot add a trust root", "PEM bytes")
            }
        }
    }

    /// Every certificate in PEM `bytes` (at least one), each to be freed by
    /// the caller.
    private static func certificates(_ bytes: [UInt8], origin: String) throws(TLSError) -> [OpaquePointer] {
        let certificates = bytes.withUnsafeBytes { memory -> [OpaquePointer] in
            guard let bio = BIO_new_mem_buf(memory.baseAddress, Int32(memory.count)) else { return [] }
            defer { BIO_free(bio) }
            var found: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                found.append(certificate)
            }
            return found
        }
        // Reading stops at the end of the text with a "no start line" error.
        OpenSSLFailure.clear()
        guard !certificates.isEmpty else {
            throw OpenSSLFailure.configuration("no certificate in the \(origin)", "PEM bytes")
        }
        return certificates
    }

    /// `["h2", "http/1.1"]` as ALPN's wire form: each name behind its length.
    private static func alpnWire(_ protocols: [String]) -> [UInt8] {
        protocols.flatMap { name -> [UInt8] in
            let bytes = Array(name.utf8.prefix(255))
            return [UInt8(bytes.count)] + bytes
        }
    }
}
