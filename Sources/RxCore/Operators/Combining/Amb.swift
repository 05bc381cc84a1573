import Synchronization

extension ObservableType {
    /// Mirrors whichever of `self` and `right` sends an event first.
    ///
    /// Both are subscribed (`self` first). The first event from either one,
    /// an element, an error or completion, picks it: the other subscription
    /// is disposed and from then on only the winner's events are emitted.
    /// Disposing disposes both (or the winner's) subscription.
    ///
    ///     self:  ---1--2--|
    ///     right: -----3--4|
    ///     amb:   ---1--2--|
    public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
        AmbProducer(sources: [asObservable(), right.asObservable()])
    }

    /// Mirrors whichever observable of `sequence` sends an event first; see
    /// `amb(_:)`. All are subscribed in order; an empty sequence never emits.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        AmbProducer(sources: Array(sequence))
    }
}

private final class AmbSink<Observer: ObserverType>: Sink<Observer>, @unchecked Sendable {
    private static var undecided: Int { -1 }

    private let winner = Atomic<Int>(AmbSink.undecided)
    private let subscriptions: [SingleAssignmentDisposable]

    init(count: Int, observer: Observer, cancel: SinkDisposer) {
        subscriptions = (0..<count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ sources: [Observable<Observer.Element>]) -> Disposable {
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(AmbObserver(parent: self, index: index)))
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<Observer.Element>, from index: Int) {
        var current = winner.load(ordering: .acquiring)
        if current == AmbSink.undecided {
            let (won, original) = winner.compareExchange(expected: AmbSink.undecided, desired: index, ordering: .acquiringAndReleasing)
            current = won ? index : original
            if won {
                for (other, subscription) in subscriptions.enumerated() where other != index {
                    subscription.dispose()
                }
            }
        }
        guard current == index else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private struct AmbObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    let parent: AmbSink<Observer>
    let index: Int

    func on(_ event: Event<Element>) {
        parent.on(event, from: index)
    }
}

private final class AmbProducer<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == Element {
        let sink = AmbSink(count: sources.count, observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink: sink, subscription: subscription)
    }
}
