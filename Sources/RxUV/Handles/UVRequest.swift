internal import CLibUV
import RxCore

/// The lifetime rule for libuv requests (`uv_write_t`, `uv_connect_t`,
/// `uv_shutdown_t`, `uv_getaddrinfo_t`, `uv_fs_t`, `uv_work_t`): this
/// object owns the request's raw memory; after a successful submit it
/// retains itself into `req->data` and the completion callback releases it
/// (`complete(_:as:)`). A submit that fails never calls back, so nothing is
/// retained and the error is thrown. Every request completes through
/// `CompletingRequest`.
class UVRequest: UVResource, @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init(loop: Loop, type: uv_req_type) {
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: uv_req_size(type), alignment: MemoryLayout<uv_any_req>.alignment)
        super.init(loop: loop, retainsLoop: false)
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
    /// reference taken at submit. The one way into a request's callback,
    /// so it is where the loop notes what it runs (`LoopVitals.running`).
    static func complete<Request: UVRequest>(_ request: UnsafeMutableRawPointer?, as type: Request.Type) -> Request {
        let raw = request!.assumingMemoryBound(to: uv_req_t.self)
        let data = raw.pointee.data!
        raw.pointee.data = nil
        let owner = unsafeDowncast(Unmanaged<UVRequest>.fromOpaque(data).takeRetainedValue(), to: Request.self)
        owner.loop.vitals.running(LoopActivity(request: raw.pointee.type))
        return owner
    }

    /// Asks libuv to cancel the request (`uv_cancel`); only some requests
    /// (address lookups, work) can be cancelled.
    func cancel() {
        assertConfined()
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

/// A request that hands its outcome to one closure, once: the one
/// completion of every request the bridge makes. Each libuv callback is a
/// one-line thunk into `complete(_:with:)`, which takes the request back
/// from libuv (releasing the reference its submit took) and calls the
/// completion, as uvw's `defaultCallback` does for every request type.
class CompletingRequest<Result>: UVRequest, @unchecked Sendable {
    private var completion: ((Result) -> Void)?

    init(loop: Loop, type: uv_req_type, completion: @escaping (Result) -> Void) {
        self.completion = completion
        super.init(loop: loop, type: type)
    }

    /// The completion callback's body: `result` to the request's
    /// completion. Loop thread.
    static func complete(_ request: UnsafeMutableRawPointer?, with result: Result) {
        UVRequest.complete(request, as: CompletingRequest<Result>.self).finish(result)
    }

    /// Calls the completion once and lets go of it (and what it captures).
    private func finish(_ result: Result) {
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
