import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to a file descriptor at once, unbuffered.
func writeOut(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

// nio-tls-echo: SwiftNIO's echo server over NIOSSL on one event-loop
// thread, the Swift reference of the TLS benchmarks.
//
//   nio-tls-echo --cert FILE --key FILE [--port N] [--tls12]
//
// Listens on 127.0.0.1 (port 0, the default, lets the system choose), with
// TCP_NODELAY as the other servers, and prints "port N" once listening.
// Each connection's pipeline is NIOSSLServerHandler, then an echo that
// writes each read back and flushes when the read burst ends.

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
var certificate: String?
var key: String?
var tls12 = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port":
        guard let value = arguments.next().flatMap(Int.init), (0...65_535).contains(value) else {
            writeOut("nio-tls-echo: --port needs a number from 0 to 65535\n", to: STDERR_FILENO)
            exit(2)
        }
        port = value
    case "--cert": certificate = arguments.next()
    case "--key": key = arguments.next()
    case "--tls12": tls12 = true
    default:
        writeOut("usage: nio-tls-echo --cert FILE --key FILE [--port N] [--tls12]\n", to: STDERR_FILENO)
        exit(2)
    }
}
guard let certificate, let key else {
    writeOut("usage: nio-tls-echo --cert FILE --key FILE [--port N] [--tls12]\n", to: STDERR_FILENO)
    exit(2)
}

var files = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
    files.rlim_cur = files.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
}

var configuration = TLSConfiguration.makeServerConfiguration(
    certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
    privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
if tls12 {
    configuration.maximumTLSVersion = .tlsv12
}
let sslContext = try NIOSSLContext(configuration: configuration)
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 128)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            try channel.pipeline.syncOperations.addHandler(EchoHandler())
        }
    }
let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
writeOut("port \(channel.localAddress?.port ?? 0)\n", to: STDOUT_FILENO)
try await channel.closeFuture.get()
try await group.shutdownGracefully()
