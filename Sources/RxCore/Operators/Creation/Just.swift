extension ObservableType {
    /// An observable that emits `element` and completes, synchronously on subscribe.
    ///
    ///     just(1): --1|
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element)
    }

    /// An observable that emits `element` and completes, both on `scheduler`.
    /// Disposing before the scheduled work runs cancels it.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        JustScheduled(element: element, scheduler: scheduler)
    }
}

// An `Observable`, not a `Producer`: it needs no trampoline and no sink,
// and a `Producer` (SPI) could not be named by inlinable code.
@usableFromInline
final class Just<Element>: Observable<Element> {
    private let element: Element

    @usableFromInline
    init(element: Element) {
        self.element = element
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        // `onNext`/`onCompleted` rather than `on(_:)`: no `Event` is built,
        // which in this unspecialised generic code would cost a metadata
        // lookup per subscription (here and in the observer).
        observer.onNext(element)
        observer.onCompleted()
        return Disposables.create()
    }
}

private final class JustScheduledSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    func run(element: Observer.Element, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.schedule(element) { element in
            self.forwardNext(element)
            return scheduler.schedule(()) { _ in
                self.forwardCompleted()
                return Disposables.create()
            }
        }
    }
}

private final class JustScheduled<Element>: Producer<Element> {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = JustScheduledSink(observer: observer, cancel: cancel)
        let subscription = sink.run(element: element, scheduler: scheduler)
        return (sink: sink, subscription: subscription)
    }
}
