import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to a file descriptor at once, unbuffered (`stdout` and
/// `stderr` are mutable C globals that Swift 6 does not let us touch here).
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

// nio-echo: SwiftNIO's echo server on one event-loop thread, the Swift
// reference of the bridge benchmarks.
//
//   nio-echo [--port N] [--threads N]
//
// `--threads` (default 1) sizes the event-loop group that serves the
// connections.
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose), with
// a backlog of 128 and TCP_NODELAY as the other servers, and prints
// "port N" once listening. Each read is written back and flushed when the
// read burst ends, as in SwiftNIO's own echo example.

final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

var port = 0
var threads = 1
var async = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    if argument == "--async" {
        async = true
        continue
    }
    switch (argument, arguments.next().flatMap(Int.init)) {
    case ("--port", let value?) where (0...65_535).contains(value):
        port = value
    case ("--threads", let value?) where value >= 1:
        threads = value
    default:
        writeOut("usage: nio-echo [--port N] [--threads N] [--async]\n", to: STDERR_FILENO)
        exit(2)
    }
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)

if async {
    // NIOAsyncChannel: each connection's inbound as an AsyncSequence, written
    // back through its outbound writer, one child task per connection.
    let server = try await ServerBootstrap(group: group)
        .serverChannelOption(ChannelOptions.backlog, value: 128)
        .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        .bind(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    writeOut("port \(server.channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
    try await withThrowingDiscardingTaskGroup { connections in
        try await server.executeThenClose { inbound in
            for try await connection in inbound {
                connections.addTask {
                    try? await connection.executeThenClose { inbound, outbound in
                        for try await buffer in inbound {
                            try await outbound.write(buffer)
                        }
                    }
                }
            }
        }
    }
    exit(0)
}

let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 128)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(EchoHandler())
        }
    }
let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
writeOut("port \(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
try await channel.closeFuture.get()
try await group.shutdownGracefully()
