import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `write(_ buffers: [ByteBuffer])`: one vectored write, bytes in order.
final class StreamVectoredWriteTests: BridgeTestCase {
    /// Writes of many buffers of varied sizes (empty ones, slices of one
    /// storage, 1 MiB ones that the kernel takes only in part, so the rest is
    /// queued from the middle of a buffer), interleaved with single-buffer
    /// writes, arrive byte-exact and in order through an echo server.
    func testVectoredWrites_ArriveInOrderByteExact() {
        let server = startEchoServer(on: loop)
        let source = ByteBuffer(randomBytes(count: 3 << 20, seed: 7))
        var writes: [[ByteBuffer]] = []
        var offset = 0
        var sizeSeed: UInt64 = 0x2545_F491_4F6C_DD1D
        while offset < source.count {
            var buffers: [ByteBuffer] = []
            for _ in 0..<5 {
                sizeSeed ^= sizeSeed << 13
                sizeSeed ^= sizeSeed >> 7
                sizeSeed ^= sizeSeed << 17
                let size = min(Int(sizeSeed % (1 << 20)), source.count - offset)
                buffers.append(source.slice(at: offset, count: size))
                offset += size
            }
            buffers.insert(ByteBuffer(), at: 1)
            writes.append(buffers)
        }
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var completions = 0
        var errors: [Error] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            for (index, buffers) in writes.enumerated() {
                _ = client.write(buffers).subscribe(onCompleted: { completions += 1 }, onError: { errors.append($0) })
                for buffer in buffers {
                    buffer.withUnsafeBytes { expected.append(contentsOf: $0) }
                }
                // A single-buffer write between vectored ones keeps its place.
                let marker = ByteBuffer(string: "<\(index)>")
                _ = client.write(marker).subscribe(onCompleted: { completions += 1 }, onError: { errors.append($0) })
                expected += Array(marker)
            }
            _ = client.write([ByteBuffer]()).andThen(client.shutdown()).subscribe(onError: { errors.append($0) })
            _ = client.rx.data.subscribe(onNext: { bytes in bytes.withUnsafeBytes { received.append(contentsOf: $0) } }, onCompleted: { server.subscription.dispose() })
        })
        runLoop(timeout: 60)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(completions, 2 * writes.count)
        XCTAssertEqual(received.count, expected.count)
        XCTAssertTrue(received == expected, "the echoed bytes differ")
    }

    /// A vectored write on a closed connection fails with ENOTCONN.
    func testVectoredWrite_OnAClosedConnectionFails() {
        let server = startEchoServer(on: loop)
        var failure: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            client.close()
            _ = client.write([ByteBuffer(string: "a")]).subscribe(onError: { failure = $0 as? UVError })
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(failure?.code, .notConnected)
        XCTAssertEqual(failure?.operation, "uv_write")
    }
}
