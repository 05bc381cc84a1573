/// A sink that passes its source's events straight through: elements as
/// they come, a terminal event followed by disposal. Operators whose work is
/// in how they subscribe (`deferred`, `using`, `startWith`, `subscribe(on:)`,
/// `delaySubscription`, `multicast`, a window) use it, or subclass it for
/// their `run`. Elements and completion take the `Event`-free paths.
class ForwardingSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    final func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }

    final func onNext(_ element: Element) {
        forwardNext(element)
    }

    final func onCompleted() {
        forwardCompleted()
    }
}
