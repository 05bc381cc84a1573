internal import CLibUV

/// A `uv_signal_t` watching one signal. `onSignal` runs on the loop thread at
/// each delivery.
final class UVSignal: UVHandle {
    /// Called with the signal number at each delivery; cleared on close.
    var onSignal: ((Int32) -> Void)?

    init(loop: Loop) throws(UVError) {
        super.init(loop: loop, type: UV_SIGNAL, kind: .signal)
        try adopt("uv_signal_init") { uv_signal_init(loop.raw, signal) }
    }

    private var signal: UnsafeMutablePointer<uv_signal_t> {
        pointer.assumingMemoryBound(to: uv_signal_t.self)
    }

    override func releaseCallbacks() {
        onSignal = nil
    }

    /// Starts watching `signum` (`uv_signal_start`).
    func start(_ signum: Int32) throws(UVError) {
        try uvCall("uv_signal_start", address: "signal \(signum)") { uv_signal_start(signal, uvSignalDelivered, signum) }
    }

    fileprivate func deliver(_ signum: Int32) {
        onSignal?(signum)
    }
}

private func uvSignalDelivered(_ signal: UnsafeMutablePointer<uv_signal_t>?, _ signum: Int32) {
    UVHandle.owner(of: signal, as: UVSignal.self).deliver(signum)
}
