internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// The loop-thread side of a `ChildProcess`: the process handle's target
/// until the exit, the teardown, and the bound on reading output after the
/// exit.
///
/// - Exit: records the status, closes the process handle (only now: libuv
///   has reaped the child), tells `exit`, and, while an output pipe is still
///   open, starts the drain timer.
/// - Drain: when the output pipes' readers end (end of output, or
///   disposed) the timer stops; when it fires first, a descendant holds a
///   pipe open, and the pipes are closed so their readers complete. A pipe
///   nobody reads does not hold anything up: it closes with the
///   `ChildProcess`.
/// - Teardown (the `ChildProcess` was released before the exit): SIGTERM to
///   the child (its group when it leads one), SIGKILL when the grace period
///   passes; the exit then closes everything as above.
///
/// One timer serves both waits: the teardown's runs before the exit, the
/// drain's after.
// @unchecked Sendable: handed to the loop thread, where all of its mutable
// state is touched; `exitSubject` is thread-safe.
final class ProcessCore: UVProcessTarget, UVTimerTarget, @unchecked Sendable {
    let loop: Loop
    let pid: Int32
    let executable: String
    /// Emits the status and completes at the exit.
    let exitSubject = AsyncSubject<TerminationStatus>()
    private let leadsGroup: Bool
    private let gracePeriod: RxTimeInterval
    private let drainTimeout: RxTimeInterval

    // Loop-thread state.
    /// The process handle, until the child exits.
    private var process: Owned<UVProcess>?
    private var timer: Owned<LoopTimer>?
    private(set) var status: TerminationStatus?
    private var isTearingDown = false
    /// Subscriptions reading an output pipe now.
    private var readers = 0
    /// The output pipes, while the `ChildProcess` keeps them.
    weak var standardOutput: StreamConnection?
    weak var standardError: StreamConnection?

    /// Takes over `process`, a child just spawned. Loop thread.
    init(process: UVProcess, executable: String, options: ProcessOptions) {
        self.loop = process.loop
        self.pid = process.pid
        self.executable = executable
        self.leadsGroup = options.newSession
        self.gracePeriod = RxTimeInterval(options.teardownGracePeriod)
        self.drainTimeout = RxTimeInterval(options.outputDrainTimeout)
        self.process = Owned(process)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
        process.target = self
    }

    /// Sends `signum` to the child, or to its process group (`-pid`), with
    /// `uv_kill`. Fails with `ESRCH` once the child has exited: its pid may
    /// belong to another process by then. Loop thread.
    func send(_ signum: Int32, toGroup group: Bool) throws(UVError) {
        assertConfined()
        guard status == nil else {
            throw UVError(code: .noSuchProcess, operation: "uv_kill", address: "\(executable) (pid \(pid)) has exited")
        }
        let target = group ? -pid : pid
        try uvCall("uv_kill", address: "\(executable) (pid \(target))") { uv_kill(target, signum) }
    }

    /// The `ChildProcess` was released: tears the child down if it still
    /// runs. Loop thread.
    func childReleased() {
        assertConfined()
        guard status == nil, !isTearingDown else { return }
        isTearingDown = true
        signalForTeardown(SIGTERM)
        do throws(UVError) {
            try startTimer(gracePeriod)
        } catch {
            // Without a timer there is no grace period to wait out.
            signalForTeardown(SIGKILL)
        }
    }

    /// A subscription started reading an output pipe. After the exit, starts
    /// the drain if none runs. Loop thread.
    func outputStarted() {
        assertConfined()
        readers += 1
        if status != nil, timer == nil {
            startDrain()
        }
    }

    /// A subscription reading an output pipe ended. Stops the drain once no
    /// one reads. Loop thread.
    func outputEnded() {
        assertConfined()
        readers -= 1
        if status != nil, readers == 0 {
            closeTimer()
        }
    }

    func processExited(status exitStatus: Int64, signal: Int32) {
        assertConfined()
        let status: TerminationStatus = signal != 0 ? .signaled(signal) : .exited(Int32(truncatingIfNeeded: exitStatus))
        self.status = status
        closeTimer()
        process.take()?.release()
        if readers > 0 {
            startDrain()
        }
        exitSubject.onNext(status)
        exitSubject.onCompleted()
    }

    func timerFired() {
        assertConfined()
        closeTimer()
        if status == nil {
            signalForTeardown(SIGKILL)
        } else {
            closeOutputs()
        }
    }

    /// Reads on for `drainTimeout` at most, then closes the pipes.
    private func startDrain() {
        do throws(UVError) {
            try startTimer(drainTimeout)
        } catch {
            closeOutputs()
        }
    }

    private func closeOutputs() {
        standardOutput?.closeNow()
        standardError?.closeNow()
    }

    /// A teardown's signal: to the group when the child leads one (so its
    /// descendants go too), else to the child. A failure cannot reach a
    /// subscriber (the child's owner is gone), so it goes to
    /// the loop's logger (`Loop.logger`: standard error by default).
    private func signalForTeardown(_ signum: Int32) {
        do throws(UVError) {
            try send(signum, toGroup: leadsGroup)
        } catch {
            // ESRCH: the child exited; its exit callback is on its way.
            if error.code != .noSuchProcess {
                report(error, ReportContext(loop: loop, handle: "process"))
            }
        }
    }

    private func startTimer(_ timeout: RxTimeInterval) throws(UVError) {
        closeTimer()
        let timer = LoopTimer(loop: loop)
        try timer.start(timeout: timeout, repeating: nil)
        timer.target = self
        self.timer = Owned(timer)
    }

    private func closeTimer() {
        timer.take()?.release()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

extension ProcessCore: LoopConfined {
    /// `.childReleased`, `.outputStarted` and `.outputEnded`.
    func runOnLoopThread(_ step: ProcessCoreStep) {
        switch step {
        case .childReleased: childReleased()
        case .outputStarted: outputStarted()
        case .outputEnded: outputEnded()
        }
    }
}
