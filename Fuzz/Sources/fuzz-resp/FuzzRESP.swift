import FuzzSupport
import RxUV

/// kv-server's RESP decoder (arrays of bulk strings and inline commands):
/// no crash, no argument past the limit, and the same commands however
/// the stream is cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limits = RESPLimits(maxInlineLength: 64, maxArguments: 8, maxBulkLength: 64)
    let split = RESPDecoder(limits: limits).decodeAll(input.reads)
    let whole = RESPDecoder(limits: limits).decodeAll(input.whole)
    require(split.frames.map(describe) == whole.frames.map(describe), "commands depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    for case .command(let arguments) in split.frames {
        require(!arguments.isEmpty && arguments.count <= limits.maxArguments, "a command of \(arguments.count) arguments")
        require(arguments.allSatisfy { $0.count <= max(limits.maxBulkLength, limits.maxInlineLength) }, "an argument past the limit")
    }
    return 0
}

private func describe(_ frame: RESPFrame) -> String {
    switch frame {
    case .command(let arguments): "command \(arguments.map { Array($0) })"
    case .protocolError(let message): "error \(message)"
    }
}
