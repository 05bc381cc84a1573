internal import CLibUV
@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// Opens the terminal on `descriptor` (standard input by default) as a
    /// `Terminal` (`uv_tty_init`; libuv reopens it by its path, so the
    /// descriptor's flags are left alone). Fails with `ENOTTY` when the
    /// descriptor is not a terminal. The result arrives on the loop thread.
    public func terminal(descriptor: Int32 = 0) -> Single<Terminal> {
        let loop = base
        return Single.create { observer in
            let operation = LoopOperation(loop: loop, target: loop, operation: "uv_tty_init") { (loop, finish) throws(UVError) in
                guard isatty(descriptor) == 1 else {
                    throw UVError(code: UVError.Code(rawValue: -ENOTTY), operation: "uv_tty_init", address: "fd \(descriptor)")
                }
                observer(.success(Terminal(handle: try UVTTY(loop: loop, descriptor: descriptor), descriptor: descriptor)))
                finish(nil)
            }
            return Completable(raw: operation).subscribe(onError: { observer(.failure($0)) })
        }
    }
}

extension Reactive where Base == Terminal {
    /// The terminal's size at each resize (SIGWINCH, `loop.rx.signal`),
    /// starting with the current size, without repeats. Events arrive on the
    /// loop thread; the sequence never completes by itself. Disposing stops
    /// watching.
    public var resizes: Observable<TerminalSize> {
        let terminal = base
        // The signal first, so that no resize falls between reading the
        // current size and watching for the next.
        return Observable.merge(terminal.loop.rx.signal(SIGWINCH).map { _ in () }, Observable.just(()))
            .concatMap { terminal.size().asObservable() }
            .distinctUntilChanged()
    }
}
