import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

#if canImport(Glibc)
import Glibc
#endif

/// One large transfer through the client, for Benchmarks/Scripts/clientmemory.py,
/// which samples this process's resident memory while it runs:
///
/// - `download`: GET `/bytes/N` and read the body through
///   `response.body.values` (the `AsyncSequence` with backpressure), the
///   consumer held to `rate` bytes a second (it sleeps after each piece for
///   as long as the piece takes at that rate), so the server sends faster
///   than the body is read.
/// - `upload`: POST `/sink` with an `HTTPClientRequestBody.values` body of
///   N bytes (64 KiB pieces of one buffer), the producer either as fast as
///   the connection pulls (`rate` 0: the server's slow reading is the
///   throttle) or held to `rate` bytes a second.
///
/// Returns the bytes moved (the body read, or the count the sink answers)
/// and this process's resident memory before the request and at its peak
/// during it (`/proc/self/statm`, sampled every 10 ms, and once more at the
/// end); throws the client's error.
struct Transfer {
    enum Direction: String { case download, upload }

    let direction: Direction
    let port: Int
    let length: Int
    /// Bytes a second for the throttled side in this process; 0 is none.
    let rate: Int

    func run(on loop: Loop) async throws -> (moved: Int, residentBefore: Int, residentPeak: Int) {
        let client = HTTPClient(loop: loop)
        let before = residentKiB()
        do {
            let (moved, peak) = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    var peak = before
                    while !Task.isCancelled {
                        peak = Swift.max(peak, residentKiB())
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return Swift.max(peak, residentKiB())
                }
                let moved = try await direction == .download ? download(client) : upload(client)
                group.cancelAll()
                return (moved, try await group.next() ?? before)
            }
            try await client.shutdown().value
            return (moved, before, peak)
        } catch {
            try? await client.shutdown().value
            throw error
        }
    }

    private func download(_ client: HTTPClient) async throws -> Int {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/bytes/\(length)")
        let response = try await client.execute(request)
        guard response.head.status == .ok else { throw TransferFailure(text: "GET answered \(response.head.status)") }
        var read = 0
        var pace = Pace(rate: rate)
        for try await piece in response.body.values {
            read += piece.count
            try await pace.after(piece.count)
        }
        return read
    }

    private func upload(_ client: HTTPClient) async throws -> Int {
        let request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:\(port)", path: "/sink")
        let pieces = Pieces(length: length, pace: Pace(rate: rate))
        let response = try await client.execute(request, body: .values(pieces, length: length))
        let answer = try await response.body.collect(upTo: 1024).value
        guard response.head.status == .ok, let count = Int(answer.string) else {
            throw TransferFailure(text: "POST answered \(response.head.status)")
        }
        return count
    }

}

/// This process's resident memory in KiB (`/proc/self/statm`'s second
/// field, in pages), -1 when it cannot be read.
func residentKiB() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return -1 }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return -1 }
    let fields = bytes[..<count].split(separator: UInt8(ascii: " "))
    guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return -1 }
    return pages * (sysconf(Int32(_SC_PAGESIZE)) / 1024)
}

/// A schedule of `rate` bytes a second from the first byte: `after(_:)`
/// sleeps while what has passed is more than a millisecond ahead of it.
struct Pace: Sendable {
    let rate: Int
    private var bytes = 0
    private var start: ContinuousClock.Instant?

    init(rate: Int) { self.rate = rate }

    mutating func after(_ count: Int) async throws {
        guard rate > 0 else { return }
        let now = ContinuousClock.now
        let start = self.start ?? now
        self.start = start
        bytes += count
        let due = start + .nanoseconds(Int64(Double(bytes) / Double(rate) * 1e9))
        if due - now > .milliseconds(1) { try await Task.sleep(until: due, clock: .continuous) }
    }
}

/// `length` bytes as 64 KiB pieces of one buffer of `a`s, handed out at
/// `pace`.
struct Pieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    static let piece = ByteBuffer([UInt8](repeating: 0x61, count: 64 * 1024))

    let length: Int
    let pace: Pace

    struct AsyncIterator: AsyncIteratorProtocol {
        var left: Int
        var pace: Pace

        mutating func next() async throws -> ByteBuffer? {
            guard left > 0 else { return nil }
            let count = Swift.min(left, Pieces.piece.count)
            left -= count
            try await pace.after(count)
            return count == Pieces.piece.count ? Pieces.piece : Pieces.piece.slice(0..<count)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(left: length, pace: pace) }
}

struct TransferFailure: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
