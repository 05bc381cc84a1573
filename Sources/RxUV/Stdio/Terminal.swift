@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// The number of columns.
    public let columns: Int
    /// The number of rows.
    public let rows: Int

    /// A size of `columns` × `rows`.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// `80x24`.
    public var description: String {
        "\(columns)x\(rows)"
    }
}

/// A terminal (a TTY), made by `loop.rx.terminal(descriptor:)`: its mode,
/// its size and its resizes. Read and write it as standard input and output
/// (`loop.rx.stdin`, `loop.standardOutput()`).
///
/// libuv 1.44 does not put a terminal back into its mode when its handle
/// closes; RxUV does, on `close()`, when the object is released, at process
/// exit, and on SIGINT or SIGTERM when the program does not handle them
/// itself (see `setRawMode(_:)`). Every method is safe from any thread;
/// libuv calls run on the loop thread.
public final class Terminal: ReactiveCompatible, Sendable {
    /// The loop the terminal's handle belongs to.
    public let loop: Loop
    /// The terminal's descriptor (0 for standard input).
    public let descriptor: Int32

    /// The terminal's handle, which closes (restoring the mode) when the
    /// terminal is released, from whichever thread.
    private let owned: Owned<UVTTY>

    init(handle: UVTTY, descriptor: Int32) {
        self.loop = handle.loop
        self.descriptor = descriptor
        self.owned = Owned(handle)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Raw mode (`true`: every key as it is typed, no echo, no line
    /// editing, no signals from Ctrl-C) or normal mode (`false`), when
    /// subscribed (`uv_tty_set_mode`). Completes on the loop thread; fails
    /// with the call's `UVError`, or `EBADF` once closed.
    ///
    /// The first switch to raw mode installs a guard that restores the
    /// original mode at exit and on SIGINT/SIGTERM (when their disposition
    /// is still the default; the process then still ends by the signal).
    public func setRawMode(_ raw: Bool) -> Completable {
        operation("uv_tty_set_mode") { (terminal, finish) throws(UVError) in
            if raw {
                ExitRestoration.install()
            }
            try terminal.openHandle().setRawMode(raw)
            finish(nil)
        }
    }

    /// The current size (`uv_tty_get_winsize`), on the loop thread.
    public func size() -> Single<TerminalSize> {
        Single.create { [self] observer in
            let operation = self.operation("uv_tty_get_winsize") { (terminal, finish) throws(UVError) in
                let size = try terminal.openHandle().windowSize()
                observer(.success(TerminalSize(columns: size.columns, rows: size.rows)))
                finish(nil)
            }
            return operation.subscribe(onError: { observer(.failure($0)) })
        }
    }

    /// Restores the terminal's original mode (`uv_tty_reset_mode`) and
    /// closes its handle (never the descriptor 0 to 2 itself). Safe from any
    /// thread, any number of times.
    public func close() {
        loop.enter(owned.resource, .close)
    }

    private func openHandle() throws(UVError) -> UVTTY {
        let tty = owned.resource
        guard tty.isOpen else {
            throw UVError(code: UVError.Code.badFileDescriptor, operation: "Terminal", address: "fd \(descriptor)")
        }
        return tty
    }

    private func operation(_ operation: StaticString, _ body: @escaping LoopOperation<Terminal>.Body) -> Completable {
        Completable(raw: LoopOperation(loop: loop, target: self, operation: operation, body: body))
    }

    deinit {
        // The handle closes as `owned` goes, right after this, restoring
        // the mode (`UVTTY.close`).
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
