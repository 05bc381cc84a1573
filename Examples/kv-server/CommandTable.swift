import RxUV

/// The commands by name: open addressing over a fixed power-of-two array,
/// at most a quarter full, indexed by the top bits of the name's
/// multiplicative hash (`CommandName.mixed`).
///
/// The names are fixed at start-up, so the table needs neither growth nor
/// a seeded hash: a lookup costs two multiplications and a probe or two,
/// where a `Dictionary` runs SipHash on every command. A name a client
/// makes up cannot lengthen a probe: the clusters are those of the
/// commands, counted at start-up, and an unknown name stops at the first
/// empty bucket of one of them.
struct CommandTable: Sendable {
    /// A bucket: a command and its name, or `nil`.
    private let buckets: [(name: CommandName, command: Command)?]
    /// 64 minus the table's bits: `mixed >> shift` is a bucket.
    private let shift: UInt64

    init(_ all: [Command]) {
        var bits: UInt64 = 3
        while 1 << bits < 4 * all.count { bits += 1 }
        var buckets = [(name: CommandName, command: Command)?](repeating: nil, count: 1 << bits)
        for command in all {
            let name = CommandName(ByteBuffer(string: command.name))!
            var bucket = Int(name.mixed >> (64 - bits))
            while let taken = buckets[bucket] {
                precondition(taken.name != name, "kv-server: the command \(command.name) is listed twice")
                bucket = (bucket + 1) & (buckets.count - 1)
            }
            buckets[bucket] = (name, command)
        }
        self.buckets = buckets
        shift = 64 - bits
    }

    /// The command called `name`, or `nil`.
    subscript(name: CommandName) -> Command? {
        var bucket = Int(name.mixed >> shift)
        while let taken = buckets[bucket] {
            if taken.name == name { return taken.command }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        return nil
    }
}
