import Synchronization

/// The observer a `Single`'s `subscribe` calls are made through: the first
/// event is the outcome. An element goes to `success` as it is, with no
/// `Event` or `Result` built (in this unspecialised code each would look
/// its metadata up in the runtime); an error, or a completion with no
/// element (`RxError.noElements`), goes to `failure`, or without one to
/// `Hooks.defaultErrorHandler` with `callStack`. Then `afterOutcome` (the
/// subscriber's `onDisposed`, or a no-op) is disposed. Later events are
/// ignored. The subscriber's closures are held here as they were given, so
/// a subscription makes this one object and no closure around them.
/// `afterOutcome` is no optional: an optional existential is copied and
/// destroyed through `Optional`'s generic value witnesses.
@usableFromInline
final class SingleOutcomeObserver<Element>: ObserverType, @unchecked Sendable {
    private let success: ((Element) -> Void)?
    private let failure: ((Swift.Error) -> Void)?
    private let callStack: [String]
    private let afterOutcome: Disposable
    private let isStopped = Atomic<Bool>(false)

    @usableFromInline
    init(
        success: ((Element) -> Void)?, failure: ((Swift.Error) -> Void)?, callStack: [String] = [], afterOutcome: Disposable = Disposables.create()
    ) {
        self.success = success
        self.failure = failure
        self.callStack = callStack
        self.afterOutcome = afterOutcome
    }

    /// Claims the one outcome: `false` once one was taken.
    private func claim() -> Bool {
        !isStopped.exchange(true, ordering: .acquiringAndReleasing)
    }

    @usableFromInline
    func onNext(_ element: Element) {
        guard claim() else { return }
        success?(element)
        afterOutcome.dispose()
    }

    @usableFromInline
    func onCompleted() {
        guard claim() else { return }
        fail(RxError.noElements)
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error(let error):
            guard claim() else { return }
            fail(error)
        case .completed:
            onCompleted()
        }
    }

    private func fail(_ error: Swift.Error) {
        if let failure {
            failure(error)
        } else {
            Hooks.defaultErrorHandler(callStack, error)
        }
        afterOutcome.dispose()
    }
}
