import FuzzSupport
import HTTPTypes
import RxUV
import RxUVHTTP

/// `HTTPResponseDecoder`'s recent lines (`HTTPRecentResponseLines`: the
/// last head's status line and field lines, whose repeats in the same
/// place take what they made) change nothing a connection's responses
/// decode to: a server's response sent again and again with small changes
/// decodes, in one decoder, to exactly what it decodes to with a new
/// decoder for each response (which has no recent lines), part for part,
/// read for read and byte offset for byte offset, to the same error at
/// the same place; in one read and in reads cut at random. The settings'
/// top bits pick the method every response answers (GET, HEAD, POST or
/// CONNECT), so that bodies of every framing, and none, are reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponseRepeats(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = RepeatedMessages(data, size)
    let method = [HTTPRequest.Method.get, .head, .post, .connect][input.choice]
    let whole = input.bytes.isEmpty ? [] : [ByteBuffer(input.bytes)]
    for (name, reads) in [("one read", whole), ("cut reads", input.reads)] {
        let together = ResponseTrace(reads, method: method, limits: input.limits, freshEachResponse: false)
        let alone = ResponseTrace(reads, method: method, limits: input.limits, freshEachResponse: true)
        require(together == alone, "\(name): the recent lines changed what was decoded, at \(together.difference(from: alone))")
    }
    return 0
}
