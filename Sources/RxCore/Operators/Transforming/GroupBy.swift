/// An observable of the elements that share one key, as emitted by `groupBy`.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key shared by every element of this group.
    public let key: Key

    private let source: Observable<Element>

    /// Creates a group with `key` whose elements come from `source`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group as a plain observable.
    public func asObservable() -> Observable<Element> {
        source
    }
}

extension ObservableType {
    /// Splits the source into groups of elements with the same key, and emits
    /// each group (a `GroupedObservable`) when its first element arrives.
    ///
    /// The group is emitted before its first element is sent to it, so a
    /// subscriber that subscribes to the group while handling it receives that
    /// element. Each group is hot (a `PublishSubject`): a later subscriber
    /// receives only later elements, and a subscriber that arrives after the
    /// source ended receives the terminal event at once. When the source
    /// completes or fails, every group and then the outer sequence receive
    /// that event. If `keySelector` throws, that error goes to every group and
    /// the outer sequence.
    ///
    /// Disposing the outer subscription stops new groups from being emitted,
    /// but the upstream subscription stays alive as long as any group
    /// subscription does; it is disposed when the last of them is.
    ///
    ///     source:               --1--2--3--4--|
    ///     groupBy { $0 % 2 }:   --A--B--------|
    ///     group A (key 1):      --1-----3-----|
    ///     group B (key 0):      -----2-----4--|
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), selector: keySelector)
    }
}

/// The observable behind one group: subscribing keeps the shared upstream
/// subscription alive until the group subscription is disposed.
private final class GroupedObservableImpl<Element>: Observable<Element> {
    private let subject: PublishSubject<Element>
    private let refCount: RefCountDisposable

    init(subject: PublishSubject<Element>, refCount: RefCountDisposable) {
        self.subject = subject
        self.refCount = refCount
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let release = refCount.retain()
        let subscription = subject.subscribe(observer)
        return Disposables.create(release, subscription)
    }
}

private final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Observer.Element == GroupedObservable<Key, Element> {
    typealias KeySelector = (Element) throws -> Key

    private let selector: KeySelector
    private let subscription = SingleAssignmentDisposable()
    private let refCount: RefCountDisposable
    private var groupIndex: [Key: PublishSubject<Element>] = [:]
    /// The groups in creation order, so terminal events reach them in a fixed order.
    private var groups: [PublishSubject<Element>] = []

    init(selector: @escaping KeySelector, observer: Observer, cancel: SinkDisposer) {
        self.selector = selector
        self.refCount = RefCountDisposable(disposable: subscription)
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        subscription.setDisposable(source.subscribe(self))
        return refCount
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try selector(element)
            } catch {
                stop(with: .error(error))
                return
            }
            if let group = groupIndex[key] {
                group.on(event)
                return
            }
            let group = PublishSubject<Element>()
            groupIndex[key] = group
            groups.append(group)
            forwardNext(GroupedObservable(key: key, source: GroupedObservableImpl(subject: group, refCount: refCount)))
            group.on(event)
        case .error, .completed:
            stop(with: event)
        }
    }

    private func stop(with event: Event<Element>) {
        for group in groups {
            group.on(event)
        }
        switch event {
        case .error(let error): forwardOn(.error(error))
        case .completed, .next: forwardOn(.completed)
        }
        subscription.dispose()
        dispose()
    }
}

private final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>> {
    private let source: Observable<Element>
    private let selector: (Element) throws -> Key

    init(source: Observable<Element>, selector: @escaping (Element) throws -> Key) {
        self.source = source
        self.selector = selector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == GroupedObservable<Key, Element> {
        let sink = GroupBySink<Key, Element, Observer>(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source)
        return (sink: sink, subscription: subscription)
    }
}
