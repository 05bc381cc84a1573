internal import CLibUV

/// A `uv_work_t`: `work` runs on libuv's thread pool, then the completion
/// runs on the loop thread with libuv's status (`UV_ECANCELED` when
/// `uv_cancel` took it off the queue before a thread started it).
final class UVWork: UVRequest {
    private let work: @Sendable () -> Void
    private var completion: ((Int32) -> Void)?

    init(loop: Loop, work: @escaping @Sendable () -> Void, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.work = work
        self.completion = completion
        super.init(type: UV_WORK)
        let request = pointer.assumingMemoryBound(to: uv_work_t.self)
        try submit("uv_queue_work") { uv_queue_work(loop.raw, request, uvWorkRun, uvWorkDone) }
    }

    /// On a pool thread.
    fileprivate func run() {
        work()
    }

    fileprivate func finish(_ status: Int32) {
        let completion = self.completion
        self.completion = nil
        completion?(status)
    }
}

/// On a pool thread: the request is alive (retained since the submit).
private func uvWorkRun(_ request: UnsafeMutablePointer<uv_work_t>?) {
    let data = request!.pointee.data!
    Unmanaged<UVRequest>.fromOpaque(data).takeUnretainedValue().asWork.run()
}

private func uvWorkDone(_ request: UnsafeMutablePointer<uv_work_t>?, _ status: Int32) {
    UVRequest.complete(request, as: UVWork.self).finish(status)
}

extension UVRequest {
    /// This request as the `UVWork` it is.
    fileprivate var asWork: UVWork {
        unsafeDowncast(self, to: UVWork.self)
    }
}
