internal import CLibUV
import RxCore

/// The lifetime rule for libuv requests (`uv_write_t`, `uv_connect_t`,
/// `uv_shutdown_t`, `uv_getaddrinfo_t`): this object owns the request's raw
/// memory; after a successful submit it retains itself into `req->data` and
/// the completion callback releases it (`complete(_:)`). A submit that fails
/// never calls back, so nothing is retained and the error is thrown.
class UVRequest: UVResource {
    let pointer: UnsafeMutableRawPointer

    init(type: uv_req_type) {
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: uv_req_size(type), alignment: MemoryLayout<uv_any_req>.alignment)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    var request: UnsafeMutablePointer<uv_req_t> {
        pointer.assumingMemoryBound(to: uv_req_t.self)
    }

    /// Submits the request (`call`, through `uvCall`); on success the
    /// request keeps itself alive until its callback. A failed submit throws
    /// and never calls back.
    func submit(_ operation: StaticString, address: @autoclosure () -> String? = nil, _ call: () -> Int32) throws(UVError) {
        // `data` points here before the call: work on the thread pool may
        // start before `call` returns (the caller holds this object until
        // then). The reference the callback releases is taken after.
        request.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        try uvCall(operation, address: address(), call)
        _ = Unmanaged.passRetained(self)
    }

    /// The request's owner in its completion callback; releases the
    /// reference taken at submit.
    static func complete<Request: UVRequest>(_ request: UnsafeMutableRawPointer?, as type: Request.Type) -> Request {
        let raw = request!.assumingMemoryBound(to: uv_req_t.self)
        let data = raw.pointee.data!
        raw.pointee.data = nil
        return unsafeDowncast(Unmanaged<UVRequest>.fromOpaque(data).takeRetainedValue(), to: Request.self)
    }

    /// Asks libuv to cancel the request (`uv_cancel`); only some requests
    /// (address lookups, work) can be cancelled.
    func cancel() {
        _ = uv_cancel(request)
    }

    /// Cancels the request: what a subscription that owns it does on dispose.
    override func release() {
        cancel()
    }

    deinit {
        pointer.deallocate()
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
