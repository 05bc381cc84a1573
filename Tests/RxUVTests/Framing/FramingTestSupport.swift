import RxCore
import RxUV

/// What a framing operator made of some chunks of bytes.
struct FramingOutcome {
    var frames: [ByteBuffer] = []
    var error: Error?
    var completed = false

    /// The frames as strings.
    var strings: [String] { frames.map(\.string) }
}

/// Feeds `chunks` (as reads would arrive) through `frame`, records what
/// comes out, then disposes the subscription.
func framing(_ chunks: [ByteBuffer], _ frame: (Observable<ByteBuffer>) -> Observable<ByteBuffer>) -> FramingOutcome {
    var outcome = FramingOutcome()
    let subscription = frame(Observable.from(chunks)).subscribe(
        onNext: { outcome.frames.append($0) },
        onError: { outcome.error = $0 },
        onCompleted: { outcome.completed = true }
    )
    // Sources that never end (`concat(Observable.never())`) stop here.
    subscription.dispose()
    return outcome
}

/// `bytes` as one chunk, as two chunks cut at every position, and as one
/// chunk per byte: every way a stream may be split that a framing operator
/// must not notice.
func everyCut(of bytes: [UInt8]) -> [[ByteBuffer]] {
    var cuts: [[ByteBuffer]] = [[ByteBuffer(bytes)]]
    for position in 0...bytes.count {
        cuts.append([ByteBuffer(bytes[..<position]), ByteBuffer(bytes[position...])])
    }
    cuts.append(bytes.map { ByteBuffer([$0]) })
    return cuts
}

/// An error for tests.
enum TestFailure: Error {
    case boom
}
