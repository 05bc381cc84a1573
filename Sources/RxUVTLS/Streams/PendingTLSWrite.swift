@_spi(Bridge) import RxCore
import RxUV
import Synchronization

/// A write made before the handshake ended, waiting for it: its
/// subscriber, told unless it disposed first. Loop thread.
// @unchecked Sendable: `observer` is immutable and called on the loop
// thread only; `ended` is atomic.
final class PendingTLSWrite: ObserverType, Disposable, @unchecked Sendable {
    private let observer: any ObserverType<Never>
    private let ended = Atomic<Bool>(false)

    init(_ observer: any ObserverType<Never>) {
        self.observer = observer
    }

    /// Tells the subscriber the write's end, once, unless it disposed.
    func on(_ event: Event<Never>) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        observer.on(event)
    }

    /// Stops the notification (from the subscriber, on any thread; the
    /// write itself cannot be taken back).
    func dispose() {
        ended.store(true, ordering: .releasing)
    }
}

/// A transport write nobody waits for (handshake messages, alerts): its
/// failure ends the stream through its read side, which sees the same
/// error.
struct UnwatchedTransportWrite: ObserverType {
    func on(_ event: Event<Never>) {}
}
