import Synchronization

/// Disposes the disposables added to it when it is deallocated.
///
/// The usual owner of subscriptions: `subscription.disposed(by: bag)`. Replace
/// the bag (`bag = DisposeBag()`) to dispose everything early. A disposable
/// inserted after the bag was disposed is disposed at once. A bag is
/// `Sendable`: insert into it and release it from any thread.
public final class DisposeBag: Sendable {
    private struct State {
        var disposables: [Disposable] = []
        var isDisposed = false
    }

    private let state = Mutex(State())

    /// Creates an empty bag.
    public init() {
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        insert(disposables)
    }

    /// A bag holding what `builder` lists, RxSwift's result-builder form:
    ///
    ///     let bag = DisposeBag {
    ///         a.subscribe(onNext: { print($0) })
    ///         b.bind(to: relay)
    ///     }
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// Adds `disposable`, to be disposed with the bag.
    public func insert(_ disposable: Disposable) {
        insert([disposable])
    }

    /// Adds each of `disposables`.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds each of `disposables`.
    public func insert(_ disposables: [Disposable]) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(contentsOf: disposables)
            return false
        }
        if disposeNow {
            disposables.forEach { $0.dispose() }
        }
    }

    /// Adds the disposables a result builder lists: `bag.insert { a; b }`.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Collects disposables for `DisposeBag.insert(builder:)`.
    @resultBuilder
    public struct DisposableBuilder {
        /// Collects the listed disposables.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }

    private func dispose() {
        let disposables = state.withLock { state -> [Disposable] in
            defer {
                state.disposables.removeAll()
                state.isDisposed = true
            }
            return state.disposables
        }
        disposables.forEach { $0.dispose() }
    }

    deinit {
        dispose()
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

extension Disposable {
    /// Adds `self` to `bag`, to be disposed when the bag is deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
