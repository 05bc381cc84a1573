internal import CLibUV
@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A running child process, from `loop.rx.spawn`.
///
/// Its standard descriptors that were asked for as pipes are here: `stdin`
/// is a writable stream, `stdout` and `stderr` are Observables of what the
/// child writes (chain `lines(maxLength:)` for lines). `exit` tells how it
/// ended. Events arrive on the loop thread; every member is safe from any
/// thread.
///
/// **Lifetime.** The child is kept by this object, by the Observables its
/// `stdout`, `stderr` and `exit` return, and by their subscriptions. When
/// the last of them goes before the child exited (a chain disposed, the object released),
/// the child is torn down: SIGTERM (to its process group when it was
/// started with `newSession`), then SIGKILL after
/// `ProcessOptions.teardownGracePeriod`. Either way the `uv_process_t`
/// closes only after libuv reaped the child, so no zombie is left, and the
/// loop keeps running until then.
///
/// **Exit and output are two events.** Output may still arrive after the
/// exit; `stdout` and `stderr` complete at the end of output, which a
/// descendant holding the pipe may delay: after the exit they are read for
/// at most `ProcessOptions.outputDrainTimeout`, then closed.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: immutable; the loop-thread state is in `core`.

    /// The child's process id.
    public let pid: Int32
    /// The child's standard input when it is a pipe (`ProcessIO.pipe`),
    /// else `nil`. Write to it; `shutdown()` or `close()` it to send the
    /// end of input.
    public let stdin: StreamConnection?
    private let standardOutput: StreamConnection?
    private let standardError: StreamConnection?
    private let core: ProcessCore

    private init(core: ProcessCore, pipes: [StreamConnection?]) {
        self.pid = core.pid
        self.core = core
        self.stdin = pipes[0]
        self.standardOutput = pipes[1]
        self.standardError = pipes[2]
        core.standardOutput = standardOutput
        core.standardError = standardError
    }

    /// The executable that was started, as found in `PATH`.
    public var executable: String {
        core.executable
    }

    /// The bytes the child writes to its standard output, one `ByteBuffer`
    /// per read, on the loop thread. Completes at the end of output (or when
    /// the drain timeout after the exit closes the pipe); completes at once
    /// when standard output is not a pipe. One subscriber at a time: a
    /// second fails with `EBUSY`. Disposing stops reading and closes the
    /// pipe (a child that writes more then gets `EPIPE`). The libuv function
    /// behind it is `uv_read_start`.
    public var stdout: Observable<ByteBuffer> {
        output(standardOutput)
    }

    /// The bytes the child writes to its standard error; see `stdout`.
    public var stderr: Observable<ByteBuffer> {
        output(standardError)
    }

    /// The child's termination status, on the loop thread, once libuv has
    /// reaped it (`uv_exit_cb`); at once if it has already. A non-zero exit
    /// code or a signal is a value, not an error. Disposing before the exit
    /// lets go of the child (see the lifetime rule above).
    public var exit: Single<TerminationStatus> {
        let core = core
        return Single(raw: leased { core.exitSubject.asObservable() })
    }

    /// Sends `signal` (default SIGTERM, 15) to the child (`uv_kill`), or
    /// with `group` to its process group (which it leads when started with
    /// `newSession`).
    /// Completes on the loop thread once sent; fails with `ESRCH` after the
    /// child has exited (its pid may be another process's by then) or with
    /// `EINVAL` for a bad signal number.
    public func kill(_ signal: Int32 = 15, group: Bool = false) -> Completable {
        Completable(
            raw: LoopOperation(loop: core.loop, target: core, operation: "uv_kill") { (core, finish) throws(UVError) in
                try core.send(signal, toGroup: group)
                finish(nil)
            })
    }

    /// `source`, keeping this object alive while subscribed.
    private func leased<Element>(_ source: @escaping () -> Observable<Element>) -> Observable<Element> {
        Observable.using({ ChildLease(child: self) }, observableFactory: { _ in source() })
    }

    private func output(_ pipe: StreamConnection?) -> Observable<ByteBuffer> {
        guard let pipe else { return .empty() }
        let core = core
        return leased {
            pipe.rx.data.do(
                onSubscribe: { _ = core.loop.enter(core, .outputStarted) },
                onDispose: { _ = core.loop.enter(core, .outputEnded) })
        }
    }

    deinit {
        let core = core
        _ = core.loop.enter(core, .childReleased)
    }

    // MARK: Spawning

    /// Starts the child of `options` on `loop`. Loop thread.
    static func spawn(_ options: ProcessOptions, on loop: Loop) throws(UVError) -> ChildProcess {
        let environment = options.environment == .inherit ? nil : options.environment.entries(inheriting: ExecutableSearch.currentEnvironment())
        let searchPath = options.environment.variables["PATH"] ?? (options.environment.inherits ? getenv("PATH").map { String(cString: $0) } : nil)
        let executable: String
        switch ExecutableSearch.locate(options.executable, path: searchPath, directory: options.workingDirectory) {
        case .executable(let found):
            executable = found
        case .notExecutable(let found):
            throw UVError(code: .permissionDenied, operation: "uv_spawn", address: found)
        case .missing:
            throw UVError(code: .noSuchFileOrDirectory, operation: "uv_spawn", address: "\(options.executable) (not found in PATH)")
        }
        var pipes: [UVPipe?] = []
        do throws(UVError) {
            for io in [options.standardInput, options.standardOutput, options.standardError] {
                pipes.append(io == .pipe ? try UVPipe(loop: loop) : nil)
            }
            let process = try SpawnOptions.with(options, executable: executable, environment: environment, pipes: pipes) { (raw) throws(UVError) in
                try UVProcess(loop: loop, options: &raw, executable: executable)
            }
            let core = ProcessCore(process: process, executable: executable, options: options)
            return ChildProcess(core: core, pipes: pipes.map { $0.map { StreamConnection(handle: $0) } })
        } catch {
            for pipe in pipes {
                pipe?.close()
            }
            throw error
        }
    }
}

/// What a subscription to a child's Observables holds: the child.
private final class ChildLease: Disposable {
    private let child: ChildProcess

    init(child: ChildProcess) {
        self.child = child
    }

    func dispose() {}
}
