/// One action queued on a scheduler: runs once unless disposed first.
final class ScheduledItem<State>: Cancelable, InvocableType {
    private let action: (State) -> Disposable
    private let state: State
    private let disposable = SingleAssignmentDisposable()

    init(action: @escaping (State) -> Disposable, state: State) {
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
