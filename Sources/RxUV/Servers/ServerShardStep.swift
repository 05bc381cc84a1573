/// The steps of a server's part on one loop (`ServerShard`), asked from
/// another loop's thread: by the acceptor that placed a connection there,
/// by a handler that ended elsewhere, by the server draining.
enum ServerShardStep: LoopStep, Equatable {
    /// Open an accepted descriptor here: the number of an `OwnedDescriptor`
    /// handed over for the trip, owned again on arrival.
    case adopt(Int32)
    /// A handler ended (its end may come on another thread).
    case finish(UInt64)
    /// The server drains: tell the handlers.
    case quiesce
    /// Reset what is left (a drain's deadline, a stop).
    case reset

    /// One tag per case, in order; the descriptor's bits or the key as the
    /// argument.
    @inline(__always)
    var packed: PackedLoopStep {
        switch self {
        case .adopt(let descriptor): PackedLoopStep(tag: 0, argument: UInt64(UInt32(bitPattern: descriptor)))
        case .finish(let key): PackedLoopStep(tag: 1, argument: key)
        case .quiesce: PackedLoopStep(tag: 2)
        case .reset: PackedLoopStep(tag: 3)
        }
    }

    /// The step `packed` packs.
    @inline(__always)
    init(packed: PackedLoopStep) {
        switch packed.tag {
        case 0: self = .adopt(Int32(bitPattern: UInt32(truncatingIfNeeded: packed.argument)))
        case 1: self = .finish(packed.argument)
        case 2: self = .quiesce
        default: self = .reset
        }
    }
}
