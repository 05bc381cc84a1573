/// The `.rx` namespace: extensions of `Reactive` where `Base` is a type hang
/// that type's observables and observers there, as in `loop.rx.signal(SIGINT)`.
///
/// For a class, `object.rx.property` is also a `Binder` that sets any
/// writable property (dynamic member lookup over its key paths), as in
/// RxSwift.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The extended value.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }
}

/// A type that offers the `.rx` namespace.
public protocol ReactiveCompatible {
    /// The extended type.
    associatedtype ReactiveBase

    /// The `.rx` namespace of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The `.rx` namespace of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The `.rx` namespace of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// The `.rx` namespace of the value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // swiftlint:disable:next unused_setter_value
        set {}
    }
}

/// A `Reactive` wrapper is `Sendable` when its base is: `loop.rx` may be
/// captured wherever the loop may.
extension Reactive: Sendable where Base: Sendable {}
