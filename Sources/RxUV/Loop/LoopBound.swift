/// A value that belongs to one loop's thread.
///
/// Libuv handles, requests and the state that drives them may be touched
/// only on the thread that runs their loop; so may the state of anything
/// built on them: a connection's parser, a protocol's state machine, a
/// daemon's session. `LoopBound` says so in the type. It is `Sendable`, so
/// an object that holds it can be handed to other threads (captured by an
/// Observable's subscribe or dispose, carried into `Loop.execute`), but its
/// `value` may be read or written only on `loop`'s thread
/// (`loop.isOnLoopThread`). Debug builds check that on every access and stop
/// with "LoopBound: read off the loop thread" (or "written"); release builds
/// check nothing and an access costs what a stored property's does.
///
/// This is the one way RxUV, its products and code built on them keep
/// loop-thread state: a type whose mutable state lives in one
/// `LoopBound<State>` is `Sendable` without `@unchecked`, and its
/// confinement is checked rather than stated in a comment. It plays the role
/// of SwiftNIO's `NIOLoopBoundBox`.
///
/// ```swift
/// final class Session: Sendable {
///     private struct State { var commands = 0 }
///     private let state: LoopBound<State>
///     init(loop: Loop) { state = LoopBound(State(), loop: loop) }
///     func handle(_ line: ByteBuffer) { state.value.commands += 1 }  // on the loop thread
/// }
/// ```
///
/// An access is exclusive for as long as it lasts: code that holds
/// `value` for modification (`state.value.field.mutate()`) must not reach
/// the same `LoopBound` again from inside that access (a callback that calls
/// back in). Read a field into a local, or finish the write, before calling
/// out; debug builds of Swift's own checks do not see such an overlap here.
///
/// It is a class so that a `Sendable` owner can hold mutable loop-thread
/// state in a `let`. It keeps its loop alive.
///
/// It is open, so that an object whose mutable state is all loop-thread
/// state can be its own box: a subclass (`final class Session:
/// LoopBound<Session.State>`) keeps that state in its own allocation, with
/// the same checked access through `value`, where a `let` would take an
/// allocation more for every object. Its members are final.
open class LoopBound<Value>: @unchecked Sendable {
    // @unchecked Sendable: `storage` is read and written only on `loop`'s
    // thread, which the accessors below check in debug builds.

    /// The loop whose thread owns the value.
    public final let loop: Loop

    // Unchecked exclusivity: every access is on the loop thread (checked in
    // debug builds) and an access never overlaps another of the same box
    // (the rule in the type's documentation); the run-time check would be
    // a thread-local lookup and an access-set insert on every access.
    @usableFromInline @exclusivity(unchecked) internal final var storage: Value

    /// Binds `value` to `loop`'s thread. May be called on any thread: the
    /// value is handed over (`sending`), and from here on it is reached only
    /// through `value` on the loop's thread.
    public init(_ value: sending Value, loop: Loop) {
        self.loop = loop
        self.storage = value
    }

    /// The value: read, written or modified in place on the loop's thread
    /// only (checked in debug builds).
    @inlinable
    public final var value: Value {
        @inline(__always) _read {
            assert(loop.isOnLoopThread, "LoopBound: read off the loop thread")
            yield storage
        }
        @inline(__always) _modify {
            assert(loop.isOnLoopThread, "LoopBound: written off the loop thread")
            yield &storage
        }
    }
}
