import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The file status flags of standard descriptors whose open file is shared
/// with other processes and could not be reopened (a socket handed in by a
/// supervisor, `socat` or socket activation): libuv makes a handle's
/// descriptor non-blocking, and the flag lives on the open file, so the
/// parent shell and the socket's other users would see it too. The flags
/// found before are put back when the handle closes and, for a process
/// that ends with the handle still open, at exit or on a deadly SIGINT or
/// SIGTERM (`ExitRestoration`). Atomics, so that the signal handler may
/// read them.
enum SharedDescriptorFlags {
    /// Flags to put back for standard input, output and error; `-1`: none.
    private static let input = Atomic<Int32>(-1)
    private static let output = Atomic<Int32>(-1)
    private static let error = Atomic<Int32>(-1)

    /// Calls `body` with the flags slot of `descriptor` (0, 1 or 2).
    private static func withSlot<Result>(_ descriptor: Int32, _ body: (borrowing Atomic<Int32>) -> Result) -> Result? {
        switch descriptor {
        case 0: body(input)
        case 1: body(output)
        case 2: body(error)
        default: nil
        }
    }

    /// Keeps `descriptor`'s flags as they are now, before a handle changes
    /// them (the first keeping wins: a second handle on it finds them
    /// changed already).
    static func keep(_ descriptor: Int32) {
        guard (0...2).contains(descriptor) else { return }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { return }
        ExitRestoration.install()
        _ = withSlot(descriptor) { $0.compareExchange(expected: -1, desired: flags, ordering: .acquiringAndReleasing) }
    }

    /// Puts `descriptor`'s kept flags back (its handle closed).
    /// Async-signal-safe.
    static func restore(_ descriptor: Int32) {
        guard let flags = withSlot(descriptor, { $0.exchange(-1, ordering: .acquiringAndReleasing) }), flags >= 0 else { return }
        _ = fcntl(descriptor, F_SETFL, flags)
    }

    /// Puts every kept descriptor's flags back. Async-signal-safe.
    static func restoreAll() {
        for descriptor in Int32(0)...2 { restore(descriptor) }
    }
}
