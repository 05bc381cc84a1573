import FuzzSupport
import RxUV

/// kv-server's RESP decoder (arrays of bulk strings and inline commands):
/// no crash, no argument past the limit, and the same commands however
/// the stream is cut, ending in a protocol error or not alike. (Which
/// error may differ, as with Redis: a `*` line longer than the inline
/// limit is "too big mbulk count string" while its CR has not arrived and
/// "invalid multibulk length" once it has; kv-server answers as Redis.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limits = RESPLimits(maxInlineLength: 64, maxArguments: 8, maxBulkLength: 64)
    let split = RESPDecoder(limits: limits).decodeAll(input.reads)
    let whole = RESPDecoder(limits: limits).decodeAll(input.whole)
    require(split.frames.map(describe) == whole.frames.map(describe), "commands depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    // An array holds at most `maxArguments`; an inline command (Redis sets
    // no count on it) at most what fits its line, one byte and a space each.
    let mostArguments = max(limits.maxArguments, limits.maxInlineLength / 2 + 1)
    for case .command(let arguments) in split.frames {
        require(!arguments.isEmpty && arguments.count <= mostArguments, "a command of \(arguments.count) arguments")
        require(arguments.allSatisfy { $0.count <= max(limits.maxBulkLength, limits.maxInlineLength) }, "an argument past the limit")
    }
    return 0
}

private func describe(_ frame: RESPFrame) -> String {
    switch frame {
    case .command(let arguments): "command \(arguments.map { Array($0) })"
    case .protocolError: "protocol error"
    }
}
