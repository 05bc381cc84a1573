internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// Puts back what RxUV changed on descriptors it shares with other
/// processes when the process ends before the handles that changed them
/// closed: a terminal left in raw mode (libuv 1.44 does not restore it, and
/// a shell left in raw mode is unusable) and a shared socket left
/// non-blocking (`SharedDescriptorFlags`). Installed once, the first time
/// either is needed:
/// - at `exit` (`atexit`);
/// - on SIGINT and SIGTERM, when nothing else handles them (their
///   disposition is the default): the handler restores both (with
///   async-signal-safe calls only: `uv_tty_reset_mode`, `fcntl`), puts the
///   default disposition back and raises the signal again, so the process
///   still ends as the signal says. A signal the program watches itself
///   (with `loop.rx.signal`) is the program's to handle: its graceful
///   shutdown closes the handles, which restores them then.
enum ExitRestoration {
    private static let installed: Void = {
        atexit { restore() }
        for signum in [SIGINT, SIGTERM] {
            var current = sigaction()
            do throws(UVError) {
                try systemCall("sigaction", address: "signal \(signum)") { sigaction(signum, nil, &current) }
                guard current.__sigaction_handler.sa_handler == nil else { continue }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = exitSignalArrived
                sigemptyset(&action.sa_mask)
                action.sa_flags = 0
                try systemCall("sigaction", address: "signal \(signum)") { sigaction(signum, &action, nil) }
            } catch {
                // Still restored at exit and when the handles close.
                report(error, ReportContext(handle: "terminal restoration"))
            }
        }
    }()

    /// Installs the guard (once).
    static func install() {
        _ = installed
    }

    /// Restores the terminal mode and the shared descriptors' flags.
    /// Async-signal-safe.
    fileprivate static func restore() {
        _ = uv_tty_reset_mode()
        SharedDescriptorFlags.restoreAll()
    }
}

/// The SIGINT / SIGTERM handler: restore, then die of the signal.
private func exitSignalArrived(_ signum: Int32) {
    ExitRestoration.restore()
    signal(signum, SIG_DFL)
    raise(signum)
}
