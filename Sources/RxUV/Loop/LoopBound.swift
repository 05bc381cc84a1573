/// A value that belongs to one loop's thread.
///
/// Libuv handles, requests and the state that drives them may be touched
/// only on the thread that runs their loop. `LoopBound` says so in the type:
/// it is `Sendable`, so it can be carried to that thread (inside a closure
/// given to `Loop.execute`), but its `value` may be read or written only
/// there; debug builds check it on every access. This is the one place where
/// the bridge states loop confinement to the compiler: types that hold
/// loop-confined state keep it in a `LoopBound` instead of declaring
/// themselves `@unchecked Sendable`.
///
/// It is a class so that a `Sendable` owner can hold mutable loop-thread
/// state in a `let`.
package final class LoopBound<Value>: @unchecked Sendable {
    /// The loop whose thread owns the value (not retained: the owner of the
    /// box keeps its loop alive).
    unowned(unsafe) let loop: Loop
    // Unchecked exclusivity: every access is on the loop thread (asserted
    // in debug builds), and the bridge reads a field and copies it out, or
    // writes one, without calling out while the access lasts; the runtime's
    // dynamic checks (a TLS lookup and an access-set insert each) would only
    // cost time on every read and write of a connection.
    @exclusivity(unchecked) private var storage: Value

    /// Binds `value` to `loop`'s thread.
    package init(_ value: Value, loop: Loop) {
        self.loop = loop
        self.storage = value
    }

    /// The value; loop thread only.
    package var value: Value {
        _read {
            assert(loop.isOnLoopThread, "LoopBound: read off the loop thread")
            yield storage
        }
        _modify {
            assert(loop.isOnLoopThread, "LoopBound: written off the loop thread")
            yield &storage
        }
    }
}
