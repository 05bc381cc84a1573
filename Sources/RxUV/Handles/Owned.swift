/// The one way the bridge owns a handle, a cancellable request, a timer or
/// an acceptor: the owner (a subscription's sink, a connection, a UDP
/// socket, a terminal, a child process, an acceptor, a server shard, the
/// loop's work queue) stores an `Owned` of it, and nothing else closes it
/// except the loop's `closeAll`. (A request nobody can take back, such as
/// a write, lives by the request rule alone: `UVRequest` keeps itself until
/// its callback. A `Server` keeps its acceptors in a list, which cannot
/// hold a noncopyable value, and releases each through its loop's door.)
///
/// `Owned` is noncopyable, so a resource has one owner, which the compiler
/// checks: ownership moves (`handOver()`), it is never shared. The rule:
/// - Dropping it (the owner goes away, or sets its optional to `nil` or to
///   another resource) releases the resource on its loop's thread: at once
///   when dropped there, otherwise through the loop's door (`Loop.enter`
///   with `.close`), so an owner may go away on any thread.
/// - `release()` releases it now, on the loop thread.
/// - `handOver()` gives it up without releasing it, to the next owner (a
///   connect's socket to its `TCPConnection`) or because it is done with
///   (a request that completed).
/// Releasing is the resource's close-once rule (`UVHandle.close`,
/// `UVRequest.cancel`): a second release, or one after `closeAll`, does
/// nothing.
struct Owned<Resource: UVResource>: ~Copyable {
    /// The resource, for its owner to use (a plain reference: reading it
    /// through its owner costs no reference counting).
    let resource: Resource
    /// Set by `release()` and `handOver()`, whose copy of the value ends
    /// right after: its deinit then leaves the resource alone.
    private var isGivenUp = false

    /// Takes ownership of `resource`.
    @inline(__always)
    init(_ resource: Resource) {
        self.resource = resource
    }

    /// Releases the resource now. Loop thread.
    @inline(__always)
    consuming func release() {
        var ending = self
        ending.isGivenUp = true
        ending.resource.release()
    }

    /// Gives the resource up without releasing it, to whoever takes it
    /// next.
    @inline(__always)
    consuming func handOver() -> Resource {
        var ending = self
        ending.isGivenUp = true
        return ending.resource
    }

    deinit {
        if !isGivenUp {
            resource.loop.enter(resource, .close)
        }
    }
}

// The owner that holds an `Owned` is itself confined or Sendable; the
// resource is released on its loop's thread whichever thread drops it.
extension Owned: @unchecked Sendable {}
