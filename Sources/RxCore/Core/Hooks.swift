import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide hooks.
public enum Hooks {
    /// Called with an error that reached a `subscribe` without an `onError` handler.
    public typealias DefaultErrorHandler = @Sendable (_ error: Error) -> Void

    private static let handler = Mutex<DefaultErrorHandler>(writeToStandardError)

    /// The handler for errors that no `onError` handles, and for errors a
    /// source cannot deliver to anyone (RxUV reports a failed accept or a
    /// scheduler timer that cannot start here). By default it writes
    /// `Unhandled error: <error>` to standard error, in every build, so that
    /// nothing fails silently; replace it to log elsewhere. It is called on
    /// the thread where the error went unhandled.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// The default handler: one line on standard error, written with one
    /// `write(2)` so that lines from several threads do not interleave.
    private static let writeToStandardError: DefaultErrorHandler = { error in
        var line = "Unhandled error: \(error)\n"
        line.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = write(2, bytes.baseAddress! + written, bytes.count - written)
                if result > 0 {
                    written += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
    }
}
