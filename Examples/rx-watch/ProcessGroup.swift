import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Stops `child`, started with `newSession` (so it leads a process group
/// whose id is its pid), and everything it started: SIGTERM to the group;
/// when the group has not emptied after `grace`, SIGKILL to it. Completes
/// once the child has exited and no process is left in its group.
///
/// Holding `child` here keeps `ChildProcess`'s own teardown (which fires
/// when the object is released, and cannot be waited for) out of the way.
func terminate(_ child: ChildProcess, grace: RxTimeInterval, on loop: Loop) -> Completable {
    let group = child.pid
    let exited = child.exit.asObservable().map { _ in () }
    // No event tells when a process group has emptied: look every 10 ms.
    let groupGone = Observable<Int>.timer(.seconds(0), period: .milliseconds(10), scheduler: loop)
        .filter { _ in !processGroupExists(group) }
        .map { _ in () }
    let gone = Observable.zip(exited, groupGone).take(1).ignoreElements().asCompletable()
    return child.kill(SIGTERM, group: true)
        // ESRCH: the child has exited, and `kill` stops there, but what it
        // started may still run in its group.
        .catch { _ in
            signalGroup(group, SIGTERM)
            return .empty()
        }
        .andThen(gone.timeout(grace, scheduler: loop))
        .catch { _ in
            signalGroup(group, SIGKILL)
            // SIGKILL cannot be caught; still, never wait forever.
            return gone.timeout(grace, scheduler: loop).catch { _ in .empty() }
        }
}

/// `kill(-group, signal)`; a group that has emptied is no error.
func signalGroup(_ group: Int32, _ signal: Int32) {
    _ = kill(-group, signal)
}

/// Whether any process is left in the process group `group`.
func processGroupExists(_ group: Int32) -> Bool {
    kill(-group, 0) == 0 || errno == EPERM
}
