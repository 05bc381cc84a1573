internal import CLibUV

/// Receives a signal handle's deliveries: the subscription that owns it.
protocol UVSignalTarget: AnyObject {
    /// `signum` was delivered. Loop thread.
    func signalDelivered(_ signum: Int32)
}

/// A `uv_signal_t` watching one signal. `target` is called on the loop
/// thread at each delivery; the handle holds it until it closes.
final class UVSignal: UVHandle, @unchecked Sendable {
    /// Called at each delivery; released when the handle closes.
    var target: UVSignalTarget?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_SIGNAL, kind: .signal)
        try adopt("uv_signal_init") { uv_signal_init(loop.raw, signal) }
    }

    private var signal: UnsafeMutablePointer<uv_signal_t> {
        pointer.assumingMemoryBound(to: uv_signal_t.self)
    }

    override func releaseCallbacks() {
        target = nil
    }

    /// Starts watching `signum` (`uv_signal_start`).
    func start(_ signum: Int32) throws(UVError) {
        try uvCall("uv_signal_start", address: "signal \(signum)") { uv_signal_start(signal, uvSignalDelivered, signum) }
    }

    fileprivate func deliver(_ signum: Int32) {
        target?.signalDelivered(signum)
    }
}

private func uvSignalDelivered(_ signal: UnsafeMutablePointer<uv_signal_t>?, _ signum: Int32) {
    UVHandle.withOwner(of: signal, as: UVSignal.self) { $0.deliver(signum) }
}
