import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide hooks, as RxSwift's `Hooks`.
public enum Hooks {
    /// Called with the call stack of the subscription (empty unless
    /// `recordCallStackOnError` is on) and an error that reached a
    /// `subscribe` without an `onError` handler.
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Error) -> Void

    /// Returns the call stack of a `subscribe` call, one frame a line.
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = writeToStandardError
        var captureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = { [] }
    }

    private static let state = Mutex(State())
    private static let recordsCallStack = Atomic<Bool>(false)

    /// Whether `subscribe` calls without an error handler record their call
    /// stack (through `customCaptureSubscriptionCallstack`) so that
    /// `defaultErrorHandler` can say where the failing subscription was made.
    /// Off by default, as in RxSwift: recording costs time on every such
    /// `subscribe`.
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// The handler for errors that no `onError` handles, and for errors a
    /// source cannot deliver to anyone (RxUV reports a failed accept or a
    /// scheduler timer that cannot start here, with an empty call stack).
    /// By default it writes `Unhandled error: <error>` to standard error, in
    /// every build, followed by the subscription's call stack when one was
    /// recorded, so that nothing fails silently; replace it to log
    /// elsewhere. It is called on the thread where the error went unhandled.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Captures the call stack of a `subscribe` call when
    /// `recordCallStackOnError` is on. RxCore has no symbolication of its
    /// own (RxSwift reads Foundation's `Thread.callStackSymbols`), so the
    /// default returns an empty stack; set a closure that returns frames,
    /// such as `{ Thread.callStackSymbols }` in a program that imports
    /// Foundation.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.captureSubscriptionCallstack } }
        set { state.withLock { $0.captureSubscriptionCallstack = newValue } }
    }

    /// The call stack to keep for a subscription without an error handler:
    /// captured when `recordCallStackOnError` is on, empty otherwise.
    @usableFromInline
    static func subscriptionCallStack() -> [String] {
        recordCallStackOnError ? customCaptureSubscriptionCallstack() : []
    }

    /// The default handler: the error, then the call stack, on standard
    /// error, written with one `write(2)` so that lines from several
    /// threads do not interleave.
    private static let writeToStandardError: DefaultErrorHandler = { callStack, error in
        var line = "Unhandled error: \(error)\n"
        if !callStack.isEmpty {
            line += " subscription called from:\n" + callStack.joined(separator: "\n") + "\n"
        }
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
