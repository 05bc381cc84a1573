internal import CLibUV

/// A `uv_work_t`: `work` runs on libuv's thread pool, then the completion
/// runs on the loop thread with libuv's status (`UV_ECANCELED` when
/// `uv_cancel` took it off the queue before a thread started it).
final class UVWork: CompletingRequest<Int32>, @unchecked Sendable {
    private let work: @Sendable () -> Void

    init(loop: Loop, work: @escaping @Sendable () -> Void, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.work = work
        super.init(loop: loop, type: UV_WORK, completion: completion)
        let request = pointer.assumingMemoryBound(to: uv_work_t.self)
        try submit("uv_queue_work") {
            uv_queue_work(loop.raw, request, uvWorkRun) { CompletingRequest<Int32>.complete($0, with: $1) }
        }
    }

    /// On a pool thread.
    fileprivate func run() {
        work()
    }
}

/// On a pool thread: the request is alive (retained since the submit).
private func uvWorkRun(_ request: UnsafeMutablePointer<uv_work_t>?) {
    let data = request!.pointee.data!
    Unmanaged<UVRequest>.fromOpaque(data).takeUnretainedValue().asWork.run()
}

extension UVRequest {
    /// This request as the `UVWork` it is.
    fileprivate var asWork: UVWork {
        unsafeDowncast(self, to: UVWork.self)
    }
}
