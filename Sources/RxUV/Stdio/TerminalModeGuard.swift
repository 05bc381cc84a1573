internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// Puts terminals back into their original mode when the process ends while
/// one is in raw mode: libuv 1.44 does not, and a shell left in raw mode is
/// unusable. Installed once, the first time a terminal goes raw:
/// - at `exit` (`atexit`);
/// - on SIGINT and SIGTERM, when nothing else handles them (their
///   disposition is the default): the handler restores the mode
///   (`uv_tty_reset_mode`, which is async-signal-safe), puts the default
///   disposition back and raises the signal again, so the process still
///   ends as the signal says. A signal the program watches itself (with
///   `loop.rx.signal`) is the program's to handle; disposing the `Terminal`
///   restores the mode then.
enum TerminalModeGuard {
    private static let installed: Void = {
        atexit { UVTTY.resetMode() }
        for signum in [SIGINT, SIGTERM] {
            var current = sigaction()
            do throws(UVError) {
                try systemCall("sigaction", address: "signal \(signum)") { sigaction(signum, nil, &current) }
                guard current.__sigaction_handler.sa_handler == nil else { continue }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = terminalSignalArrived
                sigemptyset(&action.sa_mask)
                action.sa_flags = 0
                try systemCall("sigaction", address: "signal \(signum)") { sigaction(signum, &action, nil) }
            } catch {
                // The mode is still restored at exit and by `Terminal.close`.
                report(error)
            }
        }
    }()

    /// Installs the guard (once).
    static func install() {
        _ = installed
    }
}

/// The SIGINT / SIGTERM handler: restore, then die of the signal.
private func terminalSignalArrived(_ signum: Int32) {
    _ = uv_tty_reset_mode()
    signal(signum, SIG_DFL)
    raise(signum)
}
