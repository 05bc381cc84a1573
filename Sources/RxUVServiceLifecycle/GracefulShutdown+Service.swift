import RxCore
import RxUV
import ServiceLifecycle
import Synchronization

extension GracefulShutdown {
    /// What a service's `run()` does with the shutdown that drains it:
    /// returns once the shutdown has completed and the service group has
    /// asked this service to stop (or cancelled it), so that no service of
    /// the group ends before the group asks, whichever started the
    /// shutdown. When the group asks for a graceful shutdown, the shutdown
    /// begins (`begin(escalatingOn:)`, once for every service that shares
    /// it), and a signal of `secondSignals` then ends it at once, as a
    /// second signal does for a daemon that watches its own signals. When the service's task is cancelled, the shutdown ends at
    /// once.
    func runAsService(secondSignals: [Int32]) async {
        let stop = ServiceStop()
        let completion = completed.subscribe(onCompleted: { stop.shutdownCompleted() }, onError: { _ in stop.shutdownCompleted() })
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await stop.wait()
            } onGracefulShutdown: {
                self.begin(escalatingOn: secondSignals)
                stop.asked()
            }
        } onCancel: {
            self.now()
            stop.asked()
        }
        completion.dispose()
    }
}

/// The two things a service waits for before its `run()` returns: its
/// shutdown has completed, and its service group has asked it to stop (or
/// cancelled it). Either may come first, on any thread.
private final class ServiceStop: Sendable {
    private struct State {
        var completed = false
        var asked = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func shutdownCompleted() {
        resume { $0.completed = true }
    }

    func asked() {
        resume { $0.asked = true }
    }

    /// Returns once both have happened.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.completed, state.asked { return true }
                state.waiter = continuation
                return false
            }
            if ready {
                continuation.resume()
            }
        }
    }

    private func resume(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            guard state.completed, state.asked else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
