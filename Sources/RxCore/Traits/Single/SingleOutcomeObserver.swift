import Synchronization

/// The observer a `Single`'s `subscribe` closures are called through: the
/// first event is the outcome. An element goes to `success` as it is, with
/// no `Event` or `Result` built (in this unspecialised code each would look
/// its metadata up in the runtime); an error, or a completion with no
/// element (`RxError.noElements`), goes to `failure`. Later events are
/// ignored.
final class SingleOutcomeObserver<Element>: ObserverType, @unchecked Sendable {
    private let success: (Element) -> Void
    private let failure: (Swift.Error) -> Void
    private let isStopped = Atomic<Bool>(false)

    init(success: @escaping (Element) -> Void, failure: @escaping (Swift.Error) -> Void) {
        self.success = success
        self.failure = failure
    }

    /// Claims the one outcome: `false` once one was taken.
    private func claim() -> Bool {
        !isStopped.exchange(true, ordering: .acquiringAndReleasing)
    }

    func onNext(_ element: Element) {
        guard claim() else { return }
        success(element)
    }

    func onCompleted() {
        guard claim() else { return }
        failure(RxError.noElements)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard claim() else { return }
            failure(error)
        case .completed:
            onCompleted()
        }
    }
}
