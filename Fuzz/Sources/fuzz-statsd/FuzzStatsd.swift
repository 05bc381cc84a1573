import FuzzSupport
import RxUV

/// statsd-agg's line parser on one datagram: no crash, every line giving
/// samples or a bad line, and the same samples when its lines come one
/// datagram each.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatsd(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    var samples: [StatsdSample] = []
    var bad = 0
    let metrics = StatsdParser.parse(ByteBuffer(input.bytes), sample: { samples.append($0) }, badLine: { bad += 1 })
    // Each line gives at least one sample or bad line (`a:1|c:2|c` gives two).
    require(samples.count + bad >= metrics, "\(metrics) lines gave \(samples.count) samples and \(bad) bad lines")
    var lineSamples: [StatsdSample] = []
    var lineBad = 0
    for line in input.bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
        _ = StatsdParser.parse(ByteBuffer(Array(line)), sample: { lineSamples.append($0) }, badLine: { lineBad += 1 })
    }
    require(samples == lineSamples, "samples depend on how lines are grouped into datagrams")
    require(bad == lineBad, "bad lines depend on how lines are grouped into datagrams")
    return 0
}
