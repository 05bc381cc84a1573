/// The step of a handle, request or acceptor (`UVResource`) and of a UDP
/// socket, asked from another thread: an `Owned` dropped there, a
/// terminal's or a socket's `close()`, a server that stops accepting.
package enum HandleStep: UInt8, LoopStep {
    /// Release it: close the handle, cancel the request, stop the
    /// acceptor, close the socket.
    case close
}
