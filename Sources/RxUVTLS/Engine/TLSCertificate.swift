internal import COpenSSL
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// A certificate as a handler reads it: the peer's, after the handshake
/// (`TLSSession.peerCertificate`). A value, read out of OpenSSL's `X509`
/// once.
public struct TLSCertificate: Sendable, Hashable {
    /// The subject's distinguished name, RFC 2253 style (`CN=localhost,O=RxUV`).
    public let subject: String
    /// The issuer's distinguished name, RFC 2253 style.
    public let issuer: String
    /// The subject's common name, if it has one.
    public let commonName: String?
    /// The DNS names and IP addresses of the subjectAltName extension
    /// (`localhost`, `127.0.0.1`, `::1`).
    public let subjectAlternativeNames: [String]
    /// The start of validity, in seconds since 1970-01-01 UTC.
    public let notValidBefore: Int64
    /// The end of validity, in seconds since 1970-01-01 UTC.
    public let notValidAfter: Int64
    /// The certificate in DER.
    public let der: ByteBuffer

    /// Seconds from now until it expires (negative once expired).
    public var secondsUntilExpiry: Int64 {
        notValidAfter - Int64(time(nil))
    }

    /// Reads `x509` (not consumed).
    init(_ x509: OpaquePointer) {
        subject = Self.name(X509_get_subject_name(x509))
        issuer = Self.name(X509_get_issuer_name(x509))
        commonName = Self.commonName(X509_get_subject_name(x509))
        subjectAlternativeNames = Self.alternativeNames(x509)
        notValidBefore = Self.seconds(X509_get0_notBefore(x509))
        notValidAfter = Self.seconds(X509_get0_notAfter(x509))
        let length = i2d_X509(x509, nil)
        der = ByteBuffer(unsafeUninitializedCapacity: max(Int(length), 0)) { memory in
            var cursor = memory.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard length > 0, cursor != nil else { return 0 }
            return Int(i2d_X509(x509, &cursor))
        }
    }

    private static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = X509_NAME_print_ex(bio, name, 0, rxuv_XN_FLAG_RFC2253)
        return text(of: bio)
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else {
            return nil
        }
        return string(data)
    }

    private static func alternativeNames(_ x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { rxuv_GENERAL_NAMES_free(names) }
        var result: [String] = []
        for index in 0..<rxuv_sk_GENERAL_NAME_num(names) {
            guard let entry = rxuv_sk_GENERAL_NAME_value(names, index) else { continue }
            switch entry.pointee.type {
            case GEN_DNS:
                if let dns = entry.pointee.d.dNSName, let text = string(dns) { result.append(text) }
            case GEN_IPADD:
                if let ip = entry.pointee.d.iPAddress, let text = address(ip) { result.append(text) }
            default:
                break
            }
        }
        return result
    }

    /// An ASN.1 string's bytes as UTF-8.
    private static func string(_ data: UnsafeMutablePointer<ASN1_STRING>) -> String? {
        let length = Int(ASN1_STRING_length(data))
        guard length >= 0, let bytes = ASN1_STRING_get0_data(data) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// An IP address SAN (4 or 16 bytes) in its usual text form.
    private static func address(_ data: UnsafeMutablePointer<ASN1_STRING>) -> String? {
        let length = Int(ASN1_STRING_length(data))
        guard let bytes = ASN1_STRING_get0_data(data), length == 4 || length == 16 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(length == 4 ? AF_INET : AF_INET6, bytes, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64 {
        guard let time else { return 0 }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return 0 }
        return Int64(timegm(&parts))
    }

    /// Everything written into a memory BIO, as text.
    static func text(of bio: OpaquePointer) -> String {
        var pointer: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
