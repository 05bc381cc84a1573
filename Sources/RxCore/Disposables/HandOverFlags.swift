import Synchronization

/// The one protocol of a disposable whose contents are handed over once and
/// disposed once, whichever comes first (`SinkDisposer`,
/// `SingleAssignmentDisposable`).
///
/// The owner writes its contents, then calls `publish`, a releasing
/// read-modify-write; `dispose` is an acquiring one. Exactly one caller sees
/// both flags set, and only that caller takes the contents out and disposes
/// them, so the contents themselves need no lock (their storage can be
/// `@exclusivity(unchecked)`).
struct HandOverFlags: ~Copyable {
    private static let disposedFlag = 1
    private static let handedOverFlag = 2

    private let state = Atomic<Int>(0)

    init() {}

    /// `true` once disposed.
    var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    /// Publishes the contents just written. Returns `true` when the owner
    /// was disposed meanwhile: the caller disposes the contents now.
    ///
    /// - Precondition: called once; a second call traps with `twice`.
    @inline(__always)
    func publish(twice: StaticString) -> Bool {
        let previous = state.bitwiseOr(Self.handedOverFlag, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.handedOverFlag == 0, "\(twice)")
        return previous & Self.disposedFlag != 0
    }

    /// `true` once the contents were published and disposed: the owner is
    /// done with them.
    var isFinished: Bool {
        state.load(ordering: .acquiring) == Self.disposedFlag | Self.handedOverFlag
    }

    /// Starts over, for an owner that is used again. Only for an owner that
    /// no other thread can reach.
    func reset() {
        state.store(0, ordering: .releasing)
    }

    /// Marks the owner disposed. Returns `true` for the first call once the
    /// contents are published: the caller disposes them now. Later calls,
    /// and a first call before the contents arrive, return `false`.
    @inline(__always)
    func dispose() -> Bool {
        let previous = state.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        return previous & Self.disposedFlag == 0 && previous & Self.handedOverFlag != 0
    }
}
