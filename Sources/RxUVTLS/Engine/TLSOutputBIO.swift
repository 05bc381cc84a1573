internal import COpenSSL

/// The BIO a `TLSEngine`'s `SSL` writes its records for the peer into: each
/// record goes straight into the buffer the transport will write
/// (`TLSEngine.collect`), where a memory BIO kept it in memory of its own
/// to be copied out again (`BIO_read`) for the write. The engine's
/// ciphertext input stays a memory BIO.
///
/// A sink only: OpenSSL never reads from it. A write takes every byte;
/// a flush succeeds; it is never pending, never at its end, and offers no
/// kernel TLS.
enum TLSOutputBIO {
    /// A new BIO that hands what OpenSSL writes to `engine`, which must
    /// outlive it (the engine's `SSL` owns the BIO and frees it in the
    /// engine's `deinit`).
    static func make(for engine: TLSEngine) -> OpaquePointer? {
        guard let method, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(engine).toOpaque())
        BIO_set_init(bio, 1)
        return bio
    }

    /// The one method table, made on first use and kept for the life of the
    /// process (as OpenSSL keeps its own BIOs' tables).
    private nonisolated(unsafe) static let method: OpaquePointer? = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "rxuv TLS output") else { return nil }
        guard BIO_meth_set_write_ex(method, write) == 1, BIO_meth_set_ctrl(method, control) == 1 else {
            BIO_meth_free(method)
            return nil
        }
        return method
    }()

    private static let write: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int, UnsafeMutablePointer<Int>?) -> Int32 = {
        bio, bytes, count, written in
        guard let bio, let data = BIO_get_data(bio) else { return 0 }
        if let bytes, count > 0 {
            Unmanaged<TLSEngine>.fromOpaque(data).takeUnretainedValue().collect(UnsafeRawBufferPointer(start: bytes, count: count))
        }
        written?.pointee = count
        return 1
    }

    private static let control: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int = {
        _, command, _, _ in
        switch command {
        case BIO_CTRL_FLUSH: 1
        default: 0
        }
    }
}
