import RxCore
import RxUV

/// Who reads a body from its `HTTPBodySource`: the bytes as they come, then
/// the end or the failure, each on the loop thread. Every reader is the
/// sink of its subscription (`HTTPBodyForwarder` for `bytes`,
/// `HTTPBodyCollector` for `collect(upTo:)`), so no observer is made
/// around it; a class, so that the source holds it as one reference.
package protocol HTTPBodyReader: AnyObject {
    /// Bytes of the body.
    func bodyReceived(_ bytes: ByteBuffer)
    /// The body ended; nothing follows.
    func bodyEnded()
    /// The body cannot end: `error` says why; nothing follows.
    func bodyFailed(_ error: any Error)
}
