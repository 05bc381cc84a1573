import FuzzSupport
import RxUV

/// statsd-agg's line parser on one datagram: no crash, every line either a
/// sample or a bad line, and the same samples when its lines come one
/// datagram each.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatsd(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var samples: [StatsdSample] = []
    var bad = 0
    let metrics = StatsdParser.parse(ByteBuffer(input.bytes), sample: { samples.append($0) }, badLine: { bad += 1 })
    require(metrics >= samples.count, "counted \(metrics) metrics for \(samples.count) samples")
    var lineSamples: [StatsdSample] = []
    var lineBad = 0
    for line in input.bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        _ = StatsdParser.parse(ByteBuffer(Array(line)), sample: { lineSamples.append($0) }, badLine: { lineBad += 1 })
    }
    require(samples == lineSamples, "samples depend on how lines are grouped into datagrams")
    require(bad == lineBad, "bad lines depend on how lines are grouped into datagrams")
    return 0
}
