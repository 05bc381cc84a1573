import FuzzSupport
import RxUV

/// The line decoders: no line longer than the limit, every byte of the
/// stream in a line or a report of an over-long one, and the same lines
/// however the stream is cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let maxLength = Int(input.choice % 64) + 1
    let split = LineDecoder(maxLength: maxLength).decodeAll(input.reads)
    let whole = LineDecoder(maxLength: maxLength).decodeAll(input.whole)
    require(split.frames.map(Array.init) == whole.frames.map(Array.init), "lines depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    require(split.frames.allSatisfy { $0.count <= maxLength && !$0.contains(0x0A) }, "a line past the limit or with a LF")

    let events = LineEventDecoder(maxLength: maxLength).decodeAll(input.reads)
    let wholeEvents = LineEventDecoder(maxLength: maxLength).decodeAll(input.whole)
    require("\(events.frames)" == "\(wholeEvents.frames)", "line events depend on the reads")
    require(events.failure == nil, "LineEventDecoder failed: \(events.failure ?? "")")
    return 0
}
