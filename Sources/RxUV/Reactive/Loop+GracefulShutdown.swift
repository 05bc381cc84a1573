import RxCore

extension Reactive where Base == Loop {
    /// Watches `signals` and, at the first, stops this loop's daemon cleanly:
    /// see `GracefulShutdown`. Add the servers and long-lived subscriptions
    /// to it; after the shutdown, `run()` returns.
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: RxTimeInterval = .seconds(10)) -> GracefulShutdown {
        GracefulShutdown(loops: [base], signals: signals, deadline: deadline)
    }
}

extension Reactive where Base == LoopGroup {
    /// Watches `signals` (on the first loop) and, at the first, stops the
    /// group's daemon cleanly: see `GracefulShutdown`. After it completes,
    /// call `LoopGroup.shutdown()`.
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: RxTimeInterval = .seconds(10)) -> GracefulShutdown {
        GracefulShutdown(loops: base.loops, signals: signals, deadline: deadline)
    }
}
