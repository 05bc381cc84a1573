/// An observer that binds elements to an object: RxSwift's `Binder`.
///
/// Each element is handed to `binding` together with the target, on
/// `scheduler` (by default a `MainScheduler`, as in RxSwift, which runs it
/// at once on the main thread). The target is held weakly: once it is gone,
/// elements are dropped. Completion is ignored. An error is a programmer
/// error (a binding is for sequences that cannot fail): it goes to
/// `Hooks.defaultErrorHandler`, in every build, where RxSwift traps in
/// debug builds.
///
/// `object.rx.property` gives a `Binder` for any writable property of a
/// class, through `Reactive`'s dynamic member lookup.
public struct Binder<Value>: ObserverType {
    /// The type of the elements bound.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding(target, element)` on `scheduler`
    /// for each element, while `target` lives.
    ///
    /// - Parameters:
    ///   - target: the object elements are bound to, held weakly.
    ///   - scheduler: where `binding` runs; by default a `MainScheduler`. An
    ///     RxUV program passes its `Loop`, or `CurrentThreadScheduler.instance`
    ///     to bind on the emitting thread.
    ///   - binding: applies one element to the target.
    public init<Target: AnyObject>(
        _ target: Target,
        scheduler: ImmediateSchedulerType = MainScheduler(),
        binding: @escaping (Target, Value) -> Void
    ) {
        // The target and the binding go to the scheduler's thread, which is
        // the binder's contract (as in RxSwift); the target stays weak.
        let bound = UncheckedSendable(WeakBinding(target: target, binding: binding))
        self.binding = { event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(UncheckedSendable(element)) { element in
                    bound.value.apply(element.value)
                    return Disposables.create()
                }
            case .error(let error):
                Hooks.defaultErrorHandler([], error)
            case .completed:
                break
            }
        }
    }

    /// Binds a `.next` element; ignores completion; reports an error.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as an `AnyObserver`.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}

/// A binding and its weakly held target.
private final class WeakBinding<Target: AnyObject, Value> {
    private weak var target: Target?
    private let binding: (Target, Value) -> Void

    init(target: Target, binding: @escaping (Target, Value) -> Void) {
        self.target = target
        self.binding = binding
    }

    func apply(_ value: Value) {
        guard let target else { return }
        binding(target, value)
    }
}

extension Reactive where Base: AnyObject {
    /// A `Binder` that sets the property at `keyPath` on the base object:
    /// `label.rx.text` as an observer, as in RxSwift. It runs on a
    /// `MainScheduler` and holds the object weakly.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}
