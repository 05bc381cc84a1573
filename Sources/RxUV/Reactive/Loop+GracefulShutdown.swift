import RxCore

extension Reactive where Base == Loop {
    /// Watches `signals` and, at the first, stops this loop's daemon cleanly:
    /// see `GracefulShutdown`. Add the servers and long-lived subscriptions
    /// to it; after the shutdown, `run()` returns. The servers and the drain
    /// work get `deadline` to finish (`GracefulShutdown.deadline`).
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: RxTimeInterval = .seconds(10)) -> GracefulShutdown {
        GracefulShutdown(loops: [base], signals: signals, deadline: deadline.duration)
    }

    /// `gracefulShutdown(on:deadline:)` with a `Duration`: watches `signals`
    /// (`uv_signal_start`, on this loop's thread) and, at the first, drains
    /// this loop's daemon, giving the servers and the drain work `deadline`
    /// to finish; see `GracefulShutdown`.
    @_disfavoredOverload
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: Duration) -> GracefulShutdown {
        GracefulShutdown(loops: [base], signals: signals, deadline: deadline)
    }
}

extension Reactive where Base == LoopGroup {
    /// Watches `signals` (on the first loop) and, at the first, stops the
    /// group's daemon cleanly: see `GracefulShutdown`. After it completes,
    /// call `LoopGroup.shutdown()`. The servers and the drain work get
    /// `deadline` to finish (`GracefulShutdown.deadline`).
    ///
    /// Takes RxSwift's `RxTimeInterval`; the overload beside it takes
    /// `Duration`.
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: RxTimeInterval = .seconds(10)) -> GracefulShutdown {
        GracefulShutdown(loops: base.loops, signals: signals, deadline: deadline.duration)
    }

    /// `gracefulShutdown(on:deadline:)` with a `Duration`: watches `signals`
    /// (`uv_signal_start`, on the first loop's thread) and, at the first,
    /// drains the group's daemon, giving the servers and the drain work
    /// `deadline` to finish; see `GracefulShutdown`. After it completes,
    /// call `LoopGroup.shutdown()`.
    @_disfavoredOverload
    public func gracefulShutdown(on signals: [Int32] = [2, 15], deadline: Duration) -> GracefulShutdown {
        GracefulShutdown(loops: base.loops, signals: signals, deadline: deadline)
    }
}
