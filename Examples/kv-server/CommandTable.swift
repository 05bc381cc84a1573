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
    private let names: [CommandName?]
    private let commands: [Command?]
    /// 64 minus the table's bits: `mixed >> shift` is a bucket.
    private let shift: UInt64

    init(_ all: [Command]) {
        var bits: UInt64 = 3
        while 1 << bits < 4 * all.count { bits += 1 }
        var names = [CommandName?](repeating: nil, count: 1 << bits)
        var commands = [Command?](repeating: nil, count: 1 << bits)
        for command in all {
            let name = CommandName(ByteBuffer(string: command.name))!
            var bucket = Int(name.mixed >> (64 - bits))
            while let taken = names[bucket] {
                precondition(taken != name, "kv-server: the command \(command.name) is listed twice")
                bucket = (bucket + 1) & (names.count - 1)
            }
            names[bucket] = name
            commands[bucket] = command
        }
        self.names = names
        self.commands = commands
        shift = 64 - bits
    }

    /// The command called `name`, or `nil`.
    subscript(name: CommandName) -> Command? {
        var bucket = Int(name.mixed >> shift)
        while let taken = names[bucket] {
            if taken == name { return commands[bucket] }
            bucket = (bucket + 1) & (names.count - 1)
        }
        return nil
    }
}
