internal import CLibUV
@_spi(Bridge) import RxCore
import Synchronization

/// A UDP socket, made by `loop.rx.bindUDP` or `loop.rx.connectUDP`.
///
/// Receive with `rx.datagrams`; send with `send(_:to:)` (or `send(_:)` on a
/// connected socket), a `Completable`. The socket closes on `close()` or
/// when the object is released; ending the `datagrams` subscription only
/// stops receiving. Every method is safe from any thread; libuv calls run
/// on the loop thread.
///
/// A socket is `Sendable`: hand it to another thread or task and send or
/// close there; the work hops to the loop thread.
public final class UDPSocket: ReactiveCompatible, UVUDPTarget, Sendable {
    /// The loop this socket belongs to.
    public let loop: Loop
    /// The bound address, read when the socket was set up (the port the
    /// system chose for port 0).
    public let localAddress: SocketAddress?
    /// The peer of a socket made by `connectUDP`, else `nil`.
    public let remoteAddress: SocketAddress?

    private let queuedBytes = Atomic<Int>(0)
    private let closedFlag = Atomic<Bool>(false)

    /// What only the loop thread touches.
    private struct State {
        var receiver: UDPReceiver?
    }

    private let state: LoopBound<State>

    /// The socket handle, which this socket owns: the reference may be read
    /// anywhere, the handle used on the loop thread only. It closes when the
    /// socket is released, from whichever thread.
    private let owned: Owned<UVUDP>
    /// The socket handle.
    var handle: UVUDP {
        owned.resource
    }

    /// Wraps an open, bound socket. Loop thread.
    init(handle: UVUDP) {
        self.loop = handle.loop
        self.localAddress = handle.localAddress
        self.remoteAddress = handle.remoteAddress
        self.owned = Owned(handle)
        self.state = LoopBound(State(), loop: handle.loop)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// Bytes handed to `send` that libuv has not yet passed to the kernel
    /// (`uv_udp_get_send_queue_size`, as of the last send event).
    public var sendQueueSize: Int {
        queuedBytes.load(ordering: .relaxed)
    }

    /// `true` once the socket is closed.
    public var isClosed: Bool {
        closedFlag.load(ordering: .acquiring)
    }

    /// Sends `bytes` as one datagram to `address` when subscribed: at once
    /// when the kernel takes it (`uv_udp_try_send`), otherwise queued
    /// (`uv_udp_send`). Completes when sent; fails with the send's `UVError`
    /// (`EMSGSIZE` for more than a datagram holds, `EACCES` for a broadcast
    /// address without `UDPOptions.broadcast`, `ENETUNREACH`,
    /// `EHOSTUNREACH`, `ENOBUFS`, `ECONNREFUSED` on a connected socket after
    /// an ICMP port unreachable), naming the address. A failed send never
    /// ends `datagrams`. Events arrive on the loop thread; disposing only
    /// stops the notification.
    public func send(_ bytes: ByteBuffer, to address: SocketAddress) -> Completable {
        send(bytes, destination: address)
    }

    /// Sends `bytes` as one datagram to the peer of a connected socket
    /// (`connectUDP`); on an unconnected socket it fails with
    /// `EDESTADDRREQ`. Otherwise as `send(_:to:)`.
    public func send(_ bytes: ByteBuffer) -> Completable {
        send(bytes, destination: nil)
    }

    private func send(_ bytes: ByteBuffer, destination: SocketAddress?) -> Completable {
        operation("uv_udp_send") { (socket, finish) throws(UVError) in
            let handle = socket.handle
            guard handle.isOpen else {
                throw UVError(code: UVError.Code.badFileDescriptor, operation: "uv_udp_send", address: destination?.description)
            }
            let sent = handle.trySend(bytes, to: destination)
            if sent >= 0 {
                finish(nil)
                return
            }
            guard sent == Int(UVError.Code.wouldBlock.rawValue) else {
                throw UVError(status: Int32(sent), operation: "uv_udp_send", address: destination?.description ?? socket.remoteAddress?.description)
            }
            _ = try UDPSendRequest(udp: handle, bytes: bytes, to: destination) { status in
                socket.updateQueue()
                finish(status < 0 ? UVError(status: status, operation: "uv_udp_send", address: destination?.description ?? socket.remoteAddress?.description) : nil)
            }
            socket.updateQueue()
        }
    }

    /// Joins the multicast `group` (a numeric address) on `interface` (the
    /// system's choice when `nil`) when subscribed (`uv_udp_set_membership`).
    /// Completes on the loop thread, or fails with the call's `UVError`.
    public func joinMulticastGroup(_ group: String, interface: String? = nil) -> Completable {
        operation("uv_udp_set_membership") { (socket, finish) throws(UVError) in
            try socket.handle.setMembership(group, interface: interface, join: true)
            finish(nil)
        }
    }

    /// Leaves the multicast `group` on `interface`; see `joinMulticastGroup`.
    public func leaveMulticastGroup(_ group: String, interface: String? = nil) -> Completable {
        operation("uv_udp_set_membership") { (socket, finish) throws(UVError) in
            try socket.handle.setMembership(group, interface: interface, join: false)
            finish(nil)
        }
    }

    /// Closes the socket now (`uv_close`): queued sends fail with
    /// `ECANCELED`; a `datagrams` subscriber gets `.completed`. Safe from any
    /// thread, any number of times.
    public func close() {
        loop.enter(self, .close)
    }

    private func operation(_ operation: StaticString, _ body: @escaping LoopOperation<UDPSocket>.Body) -> Completable {
        Completable(raw: LoopOperation(loop: loop, target: self, operation: operation, body: body))
    }

    deinit {
        // The handle closes as `owned` goes, right after this.
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }

    // MARK: Loop-thread internals

    private func updateQueue() {
        queuedBytes.store(handle.isOpen ? handle.sendQueueSize : 0, ordering: .relaxed)
    }

    /// Starts delivering datagrams to `receiver`, the one sink of this
    /// socket's datagrams (the handle's target is this socket while it
    /// receives); one receiver at a time.
    func beginReceiving(_ receiver: UDPReceiver) {
        guard state.value.receiver == nil else {
            receiver.end(UVError(code: UVError.Code.busy, operation: "UDPSocket.datagrams (another subscriber is receiving)", address: localAddress?.description))
            return
        }
        guard handle.isOpen else {
            receiver.end(UVError(code: UVError.Code.badFileDescriptor, operation: "UDPSocket.datagrams", address: localAddress?.description))
            return
        }
        state.value.receiver = receiver
        handle.target = self
        do throws(UVError) {
            try handle.startReceiving()
        } catch {
            detachReceiver()
            receiver.end(error)
        }
    }

    /// Ends the subscription of `receiver`: stops receiving; the socket stays open.
    func endReceiving(_ receiver: UDPReceiver) {
        guard state.value.receiver === receiver else { return }
        if handle.isOpen {
            handle.stopReceiving()
        }
        detachReceiver()
    }

    private func detachReceiver() {
        state.value.receiver = nil
        handle.target = nil
    }

    /// A receive completed (`uv_udp_recv_cb`, this socket being the handle's
    /// target while it receives): the datagram goes to the receiver, once.
    func udpReceived(_ count: Int, _ bytes: UnsafeRawPointer?, from sender: UnsafePointer<sockaddr>?, flags: UInt32) {
        if flags & UInt32(UV_UDP_MMSG_FREE.rawValue) != 0 {
            // The end of a batch: the buffer is the socket's own, kept.
            return
        }
        guard let receiver = state.value.receiver else { return }
        if count < 0 {
            // A receive error (an ICMP error reported on the socket, a lack
            // of buffers) does not end the stream of datagrams.
            report(UVError(status: Int32(count), operation: "uv_udp_recv", address: localAddress?.description), ReportContext(loop: loop, handle: "udp"))
            return
        }
        // libuv reports "nothing to read" as 0 bytes with no sender; a
        // zero-length datagram has a sender.
        guard let sender, let address = SocketAddress(sender) else { return }
        let payload = count > 0 && bytes != nil ? ByteBuffer(copying: bytes!, count: count) : ByteBuffer()
        receiver.received(Datagram(bytes: payload, sender: address, isTruncated: flags & UInt32(UV_UDP_PARTIAL.rawValue) != 0))
    }
}

extension UDPSocket: LoopConfined {
    /// `.close`: closes the socket (`close()`, on the loop thread).
    package func runOnLoopThread(_ step: HandleStep) {
        switch step {
        case .close: closeOnLoopThread()
        }
    }

    private func closeOnLoopThread() {
        closedFlag.store(true, ordering: .releasing)
        guard handle.isOpen else { return }
        handle.close()
        queuedBytes.store(0, ordering: .relaxed)
        if let receiver = state.value.receiver {
            detachReceiver()
            receiver.end(nil)
        }
    }
}
