extension ObservableType where Element: Equatable {
    /// Emits an element only when it differs (`!=`) from the last emitted one.
    ///
    /// The first element is always emitted. Terminal events pass through.
    /// Disposing the result disposes the upstream subscription.
    ///
    ///     source:                 --1--1--2--2--1--|
    ///     distinctUntilChanged(): --1-----2-----1--|
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Emits an element only when its key, from `keySelector`, differs from
    /// the key of the last emitted element.
    ///
    /// The first element is always emitted. Terminal events pass through. If
    /// `keySelector` throws, the error is emitted and the upstream
    /// subscription is disposed.
    ///
    ///     source:                         --1--3--2--4--5--|
    ///     distinctUntilChanged { $0 % 2 }: --1-----2-----5--|
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 })
    }

    /// Emits an element only when `comparer(last emitted, new)` returns `false`.
    ///
    /// The first element is always emitted. Terminal events pass through. If
    /// `comparer` throws, the error is emitted and the upstream subscription
    /// is disposed.
    ///
    ///     source:                             --1--2--4--5--|
    ///     distinctUntilChanged { $1 - $0 < 2 }: --1-----4-----|
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Emits an element only when `comparer(last key, new key)` returns
    /// `false`, where keys come from `keySelector`.
    ///
    /// The first element is always emitted, and `comparer` is first called for
    /// the second element (with the key of the last *emitted* element first).
    /// Terminal events pass through. If `keySelector` or `comparer` throws,
    /// the error is emitted and the upstream subscription is disposed.
    /// Disposing the result disposes the upstream subscription.
    ///
    ///     source:                                              --a--A--b--|
    ///     distinctUntilChanged({ $0.lowercased() }, comparer: ==): --a-----b--|
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), selector: keySelector, comparer: comparer)
    }

    /// Emits an element only when the property at `keyPath` differs from that
    /// of the last emitted element.
    ///
    /// The first element is always emitted. Terminal events pass through.
    ///
    ///     source:                              --(a,1)--(b,1)--(c,2)--|
    ///     distinctUntilChanged(at: \.number):  --(a,1)---------(c,2)--|
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    typealias KeySelector = (Element) throws -> Key
    typealias Comparer = (Key, Key) throws -> Bool

    private let selector: KeySelector
    private let comparer: Comparer
    private var currentKey: Key?

    init(selector: @escaping KeySelector, comparer: @escaping Comparer, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        self.comparer = comparer
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            do {
                let key = try selector(element)
                if let currentKey, try comparer(currentKey, key) {
                    return
                }
                currentKey = key
                forwardOn(event)
            } catch {
                forwardError(error)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

private final class DistinctUntilChanged<Element, Key>: Producer<Element> {
    private let source: Observable<Element>
    private let selector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(source: Observable<Element>, selector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.source = source
        self.selector = selector
        self.comparer = comparer
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(selector: selector, comparer: comparer, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
