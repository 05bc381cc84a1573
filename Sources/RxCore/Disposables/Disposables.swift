/// Factory functions for the common disposables.
public struct Disposables {
    private init() {}
}

extension Disposables {
    /// A disposable that does nothing when disposed.
    public static func create() -> Disposable {
        // A fresh empty struct in the existential's inline buffer: no
        // allocation, and no `swift_once` for a shared instance.
        NopDisposable()
    }

    /// A disposable that runs `dispose` once, on the first `dispose()` call.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both `disposable1` and `disposable2`, once.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three, once.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all of them, once.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes all of `disposables`, once.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

extension Disposables {
    /// The subscription `slot` holds, taken out of it with a no-op left in
    /// its place: how state lets go of the subscription of work that ended
    /// and disposes it once the access to the state is over
    /// (`Disposables.take(&state.value.work).dispose()`). A slot is a
    /// `Disposable` that holds a no-op when there is no work, not a
    /// `Disposable?`: an optional existential is copied and destroyed
    /// through `Optional`'s generic value witnesses.
    package static func take(_ slot: inout Disposable) -> Disposable {
        var taken = create()
        swap(&taken, &slot)
        return taken
    }
}
