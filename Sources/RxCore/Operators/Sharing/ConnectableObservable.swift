import Synchronization

/// An observable whose source subscription starts only when `connect()` is
/// called, and is then shared by all its subscribers.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source.
    ///
    /// - Returns: a disposable that disconnects: disposing it unsubscribes the
    ///   subject from the source.
    func connect() -> Disposable
}

/// An observable whose subscribers share one subscription to a source,
/// through a subject, which starts only when `connect()` is called.
///
/// Made by `multicast`, `publish()`, `replay(_:)` and `replayAll()`.
/// Subscribers subscribe to the subject; `connect()` subscribes the subject to
/// the source. When the source terminates, the connection ends and, for the
/// forms that make their subject (`publish()`, `multicast(makeSubject:)`...),
/// the next subscriber or `connect()` gets a new subject; `multicast(_:)`
/// keeps its one subject, which then replays its terminal event.
///
///     source:             --1--2--3--|
///     connect() at "c":      c
///     subscriber:         ------2--3--|
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    override init() {
        super.init()
    }

    /// Subscribes the shared subject to the source; while connected, calling
    /// it again returns the same connection.
    ///
    /// - Returns: a disposable that disconnects.
    public func connect() -> Disposable {
        preconditionFailure("\(type(of: self)) does not implement connect()")
    }
}

/// The `ConnectableObservable` behind `multicast`, `publish` and `replay`.
// @unchecked Sendable: its mutable state (the subject and the connection) is
// read and written under `state`'s lock; `source` and `makeSubject` are set
// once. A connection holds its adapter across threads to detach from it.
final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, @unchecked Sendable {
    typealias SourceElement = Subject.Observer.Element

    // @unchecked Sendable: read and written only under `state`'s lock.
    fileprivate struct State: @unchecked Sendable {
        var subject: Subject?
        var connection: ConnectableConnection<Subject>?
    }

    private let source: Observable<SourceElement>
    private let makeSubject: () -> Subject
    fileprivate let state = Mutex(State())

    init(source: Observable<SourceElement>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    /// The current subject, made on first use (and again after a connection ended).
    private static func lazySubject(_ state: inout State, _ makeSubject: () -> Subject) -> Subject {
        if let subject = state.subject {
            return subject
        }
        let subject = makeSubject()
        state.subject = subject
        return subject
    }

    override func connect() -> Disposable {
        let makeSubject = self.makeSubject
        let created = state.withLock { state -> (ConnectableConnection<Subject>, Bool) in
            if let connection = state.connection {
                return (connection, false)
            }
            let subject = Self.lazySubject(&state, makeSubject)
            let connection = ConnectableConnection(parent: self, subjectObserver: subject.asObserver())
            state.connection = connection
            return (connection, true)
        }
        let (connection, isNew) = created
        if isNew {
            connection.setSubscription(source.subscribe(connection))
        }
        return connection
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        let makeSubject = self.makeSubject
        let subject = state.locked { state in Self.lazySubject(&state, makeSubject) }
        return subject.subscribe(observer)
    }
}

/// One connection of a `ConnectableObservableAdapter`: the source's observer,
/// forwarding to the subject. It ends (and detaches from its parent, so the
/// next connect starts afresh) on dispose or when the source terminates.
// @unchecked Sendable: `subjectObserver` is called only by the source's
// serial event delivery; the rest is a Mutex, an atomic and a thread-safe
// disposable.
private final class ConnectableConnection<Subject: SubjectType>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Subject.Observer.Element

    private let parent: Mutex<ConnectableObservableAdapter<Subject>?>
    private let subjectObserver: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let disposed = Atomic<Bool>(false)

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.parent = Mutex(parent)
        self.subjectObserver = subjectObserver
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    func setSubscription(_ disposable: Disposable) {
        subscription.setDisposable(disposable)
    }

    func on(_ event: Event<Element>) {
        if disposed.load(ordering: .acquiring) { return }
        if event.isStopEvent {
            dispose()
        }
        subjectObserver.on(event)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let parent = self.parent.withLock { parent -> ConnectableObservableAdapter<Subject>? in
            defer { parent = nil }
            return parent
        }
        parent?.state.withLock { state in
            if state.connection === self {
                state.connection = nil
                state.subject = nil
            }
        }
        subscription.dispose()
    }

    deinit {
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}
