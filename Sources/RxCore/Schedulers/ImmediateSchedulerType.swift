/// A scheduler that runs work "as soon as possible", without a due time.
///
/// A scheduler is `Sendable`: operators share it between the threads they
/// are subscribed and disposed on, and its actions (`@Sendable`) may run on
/// another thread or later.
public protocol ImmediateSchedulerType: Sendable {
    /// Schedules `action(state)` to run.
    ///
    /// - Returns: a disposable that cancels the action if it has not run yet,
    ///   and otherwise disposes what the action returned.
    func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable
}

extension ImmediateSchedulerType {
    /// Schedules `action` recursively: `action` receives a `recurse` function
    /// that schedules the next step. Each step is a separate scheduled action,
    /// so deep recursion does not grow the stack on a trampolining scheduler.
    ///
    /// - Returns: a disposable that cancels every pending step.
    public func scheduleRecursive<State>(_ state: State, action: @escaping @Sendable (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveScheduler<State>(
            action: { state, recurse in
                action(state) { next in recurse.schedule(next) }
            },
            schedule: { state, invoke in
                self.schedule(state) { state in
                    invoke(state)
                    return Disposables.create()
                }
            })
        recursive.schedule(state)
        return recursive
    }
}
