import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(Glibc)
import Glibc
#endif

// nio-ws-echo: SwiftNIO's WebSocket echo on one event-loop thread, the Swift
// reference of the WebSocket echo benchmark (Scripts/wsbench.py, driven by
// wsload).
//
//   nio-ws-echo [--port N]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose), with
// a backlog of 128 and TCP_NODELAY as the other servers, and prints
// "port N" once listening. NIOHTTP1's server pipeline with
// NIOWebSocketServerUpgrader upgrades GET /echo (frames up to 1 MiB, as
// RxUVWebSocket's default); any other request is answered 404. On the socket
// every text or binary message is written back as one frame, its fragments
// gathered first; a ping is answered with a pong of the same bytes; a Close
// is answered with a Close of the same code and the connection closed once
// it is written. Writes are flushed when the read burst ends, as in nio-echo.
// Text is echoed as bytes, not checked for UTF-8 (SwiftNIO's own example
// does not check it either).

/// Writes `text` to a file descriptor at once, unbuffered (`stdout` and
/// `stderr` are mutable C globals that Swift 6 does not let us touch here).
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

/// The largest frame, and the largest message, the echo takes.
let maxFrameSize = 1 << 20

/// The echo on an upgraded connection.
final class WebSocketEchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The message being gathered from its fragments, and its opcode.
    private var fragments: ByteBuffer?
    private var fragmentsOpcode = WebSocketOpcode.binary
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            guard fragments == nil else { return fail(context: context, code: .protocolError) }
            if frame.fin {
                echo(context: context, opcode: frame.opcode, data: frame.unmaskedData)
            } else {
                fragmentsOpcode = frame.opcode
                fragments = frame.unmaskedData
            }
        case .continuation:
            guard var gathered = fragments else { return fail(context: context, code: .protocolError) }
            fragments = nil
            var piece = frame.unmaskedData
            guard gathered.readableBytes + piece.readableBytes <= maxFrameSize else {
                return fail(context: context, code: .messageTooLarge)
            }
            gathered.writeBuffer(&piece)
            if frame.fin {
                echo(context: context, opcode: fragmentsOpcode, data: gathered)
            } else {
                fragments = gathered
            }
        case .ping:
            guard !closing else { return }
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break
        case .connectionClose:
            receivedClose(context: context, frame: frame)
        default:
            fail(context: context, code: .protocolError)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func echo(context: ChannelHandlerContext, opcode: WebSocketOpcode, data: ByteBuffer) {
        guard !closing else { return }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    /// The peer's Close: answered with its code (or none, if it gave none),
    /// then the connection closed once the answer is written.
    private func receivedClose(context: ChannelHandlerContext, frame: WebSocketFrame) {
        guard !closing else {
            context.close(promise: nil)
            return
        }
        closing = true
        var payload = frame.unmaskedData
        var answer = context.channel.allocator.buffer(capacity: 2)
        if let code = payload.readWebSocketErrorCode() {
            answer.write(webSocketErrorCode: code)
        }
        let closed = context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: answer)))
        closed.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    /// A protocol error: a Close with `code`, then the connection closed.
    private func fail(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: code)
        let closed = context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)))
        closed.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }
}

/// Answers 404 to every plain HTTP request (the upgrader takes GET /echo
/// before it gets here); removed from the pipeline once a connection upgrades.
final class NotFoundHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "0")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .notFound, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in
            channel.close(promise: nil)
        }
    }
}

var port = 0
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch (argument, arguments.next().flatMap(Int.init)) {
    case ("--port", let value?) where (0...65_535).contains(value):
        port = value
    default:
        writeOut("usage: nio-ws-echo [--port N]\n", to: STDERR_FILENO)
        exit(2)
    }
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 128)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxFrameSize,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(head.uri == "/echo" ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WebSocketEchoHandler())
                }
            })
        return channel.eventLoop.makeCompletedFuture {
            let upgrade: NIOHTTPServerUpgradeConfiguration = (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.removeHandler(name: "not-found", promise: nil)
                }
            )
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withServerUpgrade: upgrade)
            try channel.pipeline.syncOperations.addHandler(NotFoundHandler(), name: "not-found")
        }
    }
let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
writeOut("port \(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
try await channel.closeFuture.get()
try await group.shutdownGracefully()
