import Synchronization

/// Process-wide hooks.
public enum Hooks {
    /// Called with an error that reached a `subscribe` without an `onError` handler.
    public typealias DefaultErrorHandler = @Sendable (_ error: Error) -> Void

    private static let handler = Mutex<DefaultErrorHandler>({ error in
        #if DEBUG
        print("Unhandled error happened: \(error)")
        #endif
    })

    /// The handler for errors that no `onError` handles. By default debug
    /// builds print the error and release builds ignore it.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }
}
