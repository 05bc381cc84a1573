/// The steps of a stream (`ByteStream`'s implementations: `StreamConnection`,
/// and a product's, such as a TLS stream), asked from any thread through the
/// loop's door.
package enum StreamStep: LoopStep, Equatable {
    /// Close the stream as `mode` says (`ByteStream.close(_:)`).
    case closeStream(StreamCloseMode)
    /// Hold the stream's reading back or let it go
    /// (`ByteStream.holdReading(_:)`).
    case holdReading(Bool)

    /// Tag 0 with the mode (0 after the writes, 1 now, 2 reset), or tag 1
    /// with the flag.
    @inline(__always)
    package var packed: PackedLoopStep {
        switch self {
        case .closeStream(.afterWrites): PackedLoopStep(tag: 0, argument: 0)
        case .closeStream(.now): PackedLoopStep(tag: 0, argument: 1)
        case .closeStream(.reset): PackedLoopStep(tag: 0, argument: 2)
        case .holdReading(let held): PackedLoopStep(tag: 1, argument: held ? 1 : 0)
        }
    }

    /// The step `packed` packs.
    @inline(__always)
    package init(packed: PackedLoopStep) {
        if packed.tag == 1 {
            self = .holdReading(packed.argument != 0)
            return
        }
        switch packed.argument {
        case 0: self = .closeStream(.afterWrites)
        case 1: self = .closeStream(.now)
        default: self = .closeStream(.reset)
        }
    }
}
