import RxCore
import Synchronization

/// The subject behind a stream's `rx.writable`, made by its first
/// subscriber (a stream nobody watches pays for none): what every stream
/// implementation tells its writability changes through.
package final class WritabilitySignal: Sendable {
    private let cell = Mutex<BehaviorSubject<Bool>?>(nil)

    package init() {}

    /// The subject: made on first use with `current`, and completed at once
    /// when the stream is already `closed`.
    package func subject(current: @autoclosure () -> Bool, closed: @autoclosure () -> Bool) -> BehaviorSubject<Bool> {
        let (subject, isNew) = cell.withLock { made -> (BehaviorSubject<Bool>, Bool) in
            if let made { return (made, false) }
            let subject = BehaviorSubject(value: current())
            made = subject
            return (subject, true)
        }
        if isNew, closed() {
            subject.onCompleted()
        }
        return subject
    }

    /// Tells the subscribers a change (nothing when nobody asked yet).
    package func send(_ writable: Bool) {
        cell.withLock { $0 }?.onNext(writable)
    }

    /// The stream closed: `rx.writable` completes.
    package func complete() {
        cell.withLock { $0 }?.onCompleted()
    }
}
