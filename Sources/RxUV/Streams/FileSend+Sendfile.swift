@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension FileSend {
    /// A libuv stream's direct path: `sendfile(2)` hands the kernel what
    /// the stream's socket takes now, straight from the page cache, with no
    /// copy in this process, only while nothing is queued or held before
    /// it. The bytes sent count as written (the stream's traffic, its last
    /// activity). Declines (`notNow`) when the socket is full (`EAGAIN`) or
    /// writes wait before it; `unsupported` when the descriptor cannot take
    /// `sendfile` (`EINVAL`: a pipe, a TTY). Loop thread.
    static func directPath(sendingTo stream: StreamConnection) -> DirectPath {
        { [stream] file, offset, count throws(UVError) -> DirectSend in
            guard stream.handle.isOpen else { throw stream.writeError(.notConnected) }
            // Only with nothing before it: no write queued, none held for
            // the end of a read's handling (then it goes, as a write that
            // the kernel takes at once, before any made after it).
            guard stream.state.value.writes.isDrained, stream.state.value.writes.held.writes.isEmpty, let socket = stream.handle.descriptor else { return .notNow }
            var position = off_t(offset)
            do throws(UVError) {
                let sent = Int(try systemCall("sendfile", address: stream.peerDescription) { Int32(truncatingIfNeeded: Glibc.sendfile(socket, file.descriptor, &position, count)) })
                if sent > 0 {
                    stream.state.value.traffic?.wrote(sent)
                    stream.state.value.lastActivity = stream.loop.clockMilliseconds
                }
                return .sent(sent)
            } catch  where error.code == .wouldBlock {
                return .notNow
            } catch  where error.code == .invalidArgument {
                return .unsupported
            }
        }
    }
}
