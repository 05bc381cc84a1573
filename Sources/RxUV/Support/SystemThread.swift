#if canImport(Glibc)
import Glibc
#endif

/// Starts a thread of the system's (`pthread_create`) that runs `body`
/// and ends: how a `LoopGroup` runs each loop and a `LoopWatchdog` its
/// sampling. The caller joins it (`pthread_join`). Throws the error of
/// `pthread_create`; `body` is then released without running.
func startSystemThread(_ body: @escaping @Sendable () -> Void) throws(UVError) -> pthread_t {
    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
    guard status == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        throw UVError(code: UVError.Code(rawValue: -status), operation: "pthread_create")
    }
    return thread
}
