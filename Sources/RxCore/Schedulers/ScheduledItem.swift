/// One action queued on a scheduler: runs once unless disposed first.
///
/// `@unchecked Sendable`: `state` is only passed to `action`, once, by the
/// scheduler that runs the item; nothing else reads it.
final class ScheduledItem<State>: Cancelable, InvocableType, @unchecked Sendable {
    private let action: @Sendable (State) -> Disposable
    private let state: State
    private let disposable = SingleAssignmentDisposable()

    init(action: @escaping @Sendable (State) -> Disposable, state: State) {
        self.action = action
        self.state = state
    }

    func invoke() {
        disposable.setDisposable(action(state))
    }

    var isDisposed: Bool {
        disposable.isDisposed
    }

    func dispose() {
        disposable.dispose()
    }
}

/// Work that a scheduler can run.
protocol InvocableType: Cancelable {
    func invoke()
}
