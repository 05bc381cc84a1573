/// Why a stream is not reading: the one read gate of a stream, which knows
/// its reasons. Reading runs while a reader is attached and no reason holds
/// it back; each reason is set and cleared by the part that owns it.
struct ReadGate {
    /// The reasons reading may be held back.
    struct Reasons: OptionSet {
        let rawValue: UInt8

        /// More than `highWatermark` bytes wait to be written: reading
        /// resumes at `lowWatermark`.
        static let writeBackpressure = Reasons(rawValue: 1 << 0)
        /// The consumer asked for no more yet (an async face's demand).
        static let demand = Reasons(rawValue: 1 << 1)
    }

    /// The reasons holding reading back now.
    private(set) var reasons: Reasons = []

    /// Holds reading back for `reason`. Returns `true` when that closes an
    /// open gate (the caller stops reading).
    mutating func close(for reason: Reasons) -> Bool {
        let wasOpen = reasons.isEmpty
        reasons.insert(reason)
        return wasOpen
    }

    /// Lets go of `reason`. Returns `true` when that opens the gate (the
    /// caller starts reading again).
    mutating func open(for reason: Reasons) -> Bool {
        guard reasons.contains(reason) else { return false }
        reasons.remove(reason)
        return reasons.isEmpty
    }
}
