import AsyncHTTPClient
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

// ahc-client: AsyncHTTPClient 1.37.0 on one event loop
// (MultiThreadedEventLoopGroup(numberOfThreads: 1), the client on it as a
// shared group), making COUNT GET requests to 127.0.0.1:PORT (at most
// IN_FLIGHT at once over at most IN_FLIGHT connections, each body read
// whole), then shutting down: rxuv-http-client's reference in
// Benchmarks/Scripts/clientbench.py. Requests go through the
// EventLoopFuture API with the delegate and the channel on the one loop,
// AsyncHTTPClient's cheapest path (no Swift concurrency in between).
//
//   ahc-client --port N [--count N] [--in-flight N] [--path PATH]
//
// Prints "requests N bytes B" at the end; exits 1 on the first failure
// (an error or a status other than 200).

/// Writes `message` to the standard error (through the descriptor: NIO
/// imports Glibc without `@preconcurrency`, so `stderr` is not usable here).
func complain(_ message: String) {
    var bytes = Array(message.utf8)
    bytes.append(UInt8(ascii: "\n"))
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The command line's settings.
struct Settings {
    var port = 0
    var count = 1000
    var inFlight = 1
    var path = "/plaintext"

    init(_ arguments: [String]) {
        var arguments = arguments.makeIterator()
        func number(_ name: String, _ range: ClosedRange<Int>) -> Int {
            guard let value = arguments.next().flatMap(Int.init), range.contains(value) else {
                complain("ahc-client: \(name) needs a number from \(range.lowerBound) to \(range.upperBound)")
                exit(2)
            }
            return value
        }
        while let argument = arguments.next() {
            switch argument {
            case "--port": port = number("--port", 1...65_535)
            case "--count": count = number("--count", 1...100_000_000)
            case "--in-flight": inFlight = number("--in-flight", 1...10_000)
            case "--path": path = arguments.next() ?? "/"
            default:
                complain("usage: ahc-client --port N [--count N] [--in-flight N] [--path PATH]")
                exit(2)
            }
        }
    }
}

/// The run's state, touched only on `loop`: each finished request starts
/// the next until `count` have started, so that at most `inFlight` are out.
final class Run: @unchecked Sendable {
    let client: HTTPClient
    let loop: EventLoop
    let request: HTTPClient.Request
    let count: Int
    let done: EventLoopPromise<Int>
    var started = 0
    var finished = 0
    var bytes = 0
    var failed = false

    init(client: HTTPClient, loop: EventLoop, request: HTTPClient.Request, count: Int) {
        self.client = client
        self.loop = loop
        self.request = request
        self.count = count
        self.done = loop.makePromise(of: Int.self)
    }

    func start() {
        loop.assertInEventLoop()
        started += 1
        client.execute(request: request, eventLoop: .delegateAndChannel(on: loop)).whenComplete { result in
            self.loop.assertInEventLoop()
            guard !self.failed else { return }
            switch result {
            case .success(let response) where response.status == .ok:
                self.bytes += response.body?.readableBytes ?? 0
            case .success(let response):
                self.failed = true
                self.done.fail(UnexpectedStatus(code: Int(response.status.code)))
                return
            case .failure(let error):
                self.failed = true
                self.done.fail(error)
                return
            }
            self.finished += 1
            if self.started < self.count {
                self.start()
            } else if self.finished == self.count {
                self.done.succeed(self.bytes)
            }
        }
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    let code: Int
    var description: String { "status \(code)" }
}

let settings = Settings(Array(CommandLine.arguments.dropFirst()))
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.inFlight)
let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
let status: Int32
do {
    let request = try HTTPClient.Request(url: "http://127.0.0.1:\(settings.port)\(settings.path)")
    let run = Run(client: client, loop: loop, request: request, count: settings.count)
    let initial = min(settings.inFlight, settings.count)
    loop.execute {
        for _ in 0..<initial { run.start() }
    }
    let bytes = try run.done.futureResult.wait()
    print("requests \(settings.count) bytes \(bytes)")
    status = 0
} catch {
    complain("ahc-client: \(error)")
    status = 1
}
try? client.syncShutdown()
try? group.syncShutdownGracefully()
exit(status)
