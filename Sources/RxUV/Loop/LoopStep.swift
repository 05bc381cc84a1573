/// A loop-confined object's vocabulary (`LoopConfined.Step`): what another
/// thread can ask it to do on its loop's thread, through the loop's one
/// door, with no closure.
///
/// A step travels through the loop's queue packed into a fixed
/// `PackedLoopStep` (which step, and one argument of up to 64 bits), so
/// the queue carries every object's steps without knowing their types, and
/// a hop allocates nothing. A step type packs and unpacks itself: an enum
/// with `UInt8` raw values and no payloads gets both from the extension
/// below; an enum with payloads writes the pair, one tag per case.
package protocol LoopStep: Sendable {
    /// The step packed for the loop's queue.
    var packed: PackedLoopStep { get }

    /// The step that `packed` is the packing of. Only a packing made by
    /// `packed` of the same type reaches it.
    init(packed: PackedLoopStep)
}

/// A step packed for the trip through the loop's queue: which step
/// (`tag`, the step type's own numbering) and its argument.
package struct PackedLoopStep: Sendable {
    /// Which step of its type.
    package var tag: UInt8
    /// The step's argument: a number, a flag, a descriptor. 0 for none.
    package var argument: UInt64

    /// A packed step: `tag`, with `argument` (0 for a step without one).
    @inline(__always)
    package init(tag: UInt8, argument: UInt64 = 0) {
        self.tag = tag
        self.argument = argument
    }
}

extension LoopStep where Self: RawRepresentable, RawValue == UInt8 {
    /// The raw value as the tag, with no argument.
    @inline(__always)
    package var packed: PackedLoopStep {
        PackedLoopStep(tag: rawValue)
    }

    /// The case whose raw value is the tag.
    @inline(__always)
    package init(packed: PackedLoopStep) {
        // Only `packed` of this type makes the tag: always a raw value.
        self.init(rawValue: packed.tag)!
    }
}
