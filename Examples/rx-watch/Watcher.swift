import ExampleSupport
import RxCore
import RxUV

#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` as a mutable global.
@preconcurrency import Glibc
#endif

/// Runs the command, and remembers the stopping of a run that was cut
/// short, so the next run can wait until it is gone. Loop-thread state.
final class Watcher {
    let loop: Loop
    let command: [String]
    let pathsFromStandardInput: Bool
    let clear: Bool
    let grace: RxTimeInterval
    /// Completes once the last run that was cut short has stopped, with
    /// everything it started.
    private var previousStopped = Completable.empty()

    init(loop: Loop, command: [String], pathsFromStandardInput: Bool, clear: Bool, grace: RxTimeInterval) {
        self.loop = loop
        self.command = command
        self.pathsFromStandardInput = pathsFromStandardInput
        self.clear = clear
        self.grace = grace
    }

    /// `sh -c 'make test'`: the command, quoted for a shell where needed.
    var commandLine: String {
        command.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }
        .joined(separator: " ")
    }

    /// One run when subscribed: the command in a process group of its own,
    /// its output straight to ours. Emits its status at the exit; a command
    /// that cannot start is reported and counts as status 127, as in a
    /// shell. Disposing before the exit stops it (see `terminate`).
    func run() -> Observable<TerminationStatus> {
        Observable.deferred { [self] in
            if clear {
                // Home, clear the screen, clear the scrollback.
                print("\u{1B}[H\u{1B}[2J\u{1B}[3J", terminator: "")
                fflush(stdout) // before the command writes to the same descriptor
            }
            var options = ProcessOptions(command[0], arguments: Array(command.dropFirst()))
            options.newSession = true // its own process group, stopped as a whole
            options.standardInput = pathsFromStandardInput ? .discard : .inherit
            options.standardOutput = .inherit
            options.standardError = .inherit
            return loop.rx.spawn(options).asObservable()
                .flatMap { [self] child -> Observable<TerminationStatus> in
                    var exited = false
                    return child.exit.asObservable()
                        .do(
                            onNext: { _ in exited = true },
                            onDispose: { [self] in
                                if !exited { stopInBackground(child) }
                            })
                }
                .catch { error in
                    let reason = (error as? UVError)?.shortDescription ?? "\(error)"
                    self.loop.logger.error("cannot run \(self.commandLine): \(reason)", error: error)
                    return .just(.exited(127))
                }
        }
    }

    /// `next`, subscribed once the last run cut short has stopped.
    func afterPreviousStopped<Element>(_ next: Observable<Element>) -> Observable<Element> {
        Observable.deferred { [self] in previousStopped.andThen(next) }
    }

    /// Stops `child` and its group, whoever waits; the next run waits for it.
    private func stopInBackground(_ child: ChildProcess) {
        let stopped = AsyncSubject<Never>()
        _ = terminate(child, grace: grace, on: loop).asObservable().subscribe(stopped)
        previousStopped = stopped.asObservable().asCompletable()
    }
}

extension ObservableType where Element == Void {
    /// Runs `work` for an element; elements that come while it runs are
    /// folded into one more run once it ends (so no change is missed, and
    /// a burst of them costs one run). Errors of either side end it.
    func queueing<Result>(_ work: @escaping () -> Observable<Result>) -> Observable<Result> {
        Observable.create { observer in
            var running = false
            var pending = false
            var sourceDone = false
            let current = SerialDisposable()
            func start() {
                running = true
                current.disposable = work().subscribe(
                    onNext: { observer.onNext($0) },
                    onError: { observer.onError($0) },
                    onCompleted: {
                        running = false
                        if pending {
                            pending = false
                            start()
                        } else if sourceDone {
                            observer.onCompleted()
                        }
                    })
            }
            let triggers = self.subscribe(
                onNext: {
                    if running {
                        pending = true
                    } else {
                        start()
                    }
                },
                onError: { observer.onError($0) },
                onCompleted: {
                    sourceDone = true
                    if !running { observer.onCompleted() }
                })
            return Disposables.create(triggers, current)
        }
    }
}
