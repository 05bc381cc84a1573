import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

/// Writes a reader makes while it handles one read: the first goes out at
/// once, the others are held and go out together, in one write, when the
/// handling ends (`CoalescedWrites`): in order, each subscriber told; before
/// a shutdown made in the same handling; failed with `ECANCELED` when the
/// stream closes first; untold once disposed.
final class WriteCoalescingTests: BridgeTestCase {
    /// A server on the test's loop whose handler runs `handle` on each read
    /// of each connection; a client that sends `request`, then collects what
    /// comes back until end of stream.
    private func exchange(_ request: String, handle: @escaping (TCPConnection, ByteBuffer) -> Void) -> String {
        let port = Shared(0)
        var listener: Disposable?
        listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                listener?.dispose()
                _ = connection.rx.data.subscribe(onNext: { handle(connection, $0) })
            })
        var answer = ""
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { answer += $0.string })
            _ = client.write(request).subscribe()
        })
        runLoop()
        return answer
    }

    func testWritesWhileHandlingARead_GoOutInTwoWriteCallsInOrder() {
        var told: [String] = []
        var toldDuringHandling: [String] = []
        let parts = ["a", "b", "c", "d", "e"]
        let answer = exchange("go") { connection, _ in
            // A third uv_write call of any kind would fail: two are allowed.
            UVFaultInjection.inject(UVError.Code.brokenPipe.rawValue, into: "uv_write", after: 2)
            for part in parts {
                _ = connection.write(part).subscribe(onCompleted: { told.append(part) }, onError: { told.append("\(part): \($0)") })
            }
            toldDuringHandling = told
            _ = connection.shutdown().subscribe(onCompleted: { connection.close() })
        }
        let fired = UVFaultInjection.firedCount("uv_write")
        UVFaultInjection.removeAll()
        XCTAssertEqual(answer, "abcde")
        XCTAssertEqual(told, parts)
        XCTAssertEqual(toldDuringHandling, ["a"], "only the first write goes out during the handling")
        XCTAssertEqual(fired, 0, "the five writes took more than two write calls")
    }

    func testDisposedHeldWrite_StillGoesOutUntold() {
        var told = false
        let answer = exchange("go") { connection, _ in
            _ = connection.write("first, ").subscribe()
            connection.write("kept").subscribe(onCompleted: { told = true }).dispose()
            _ = connection.shutdown().subscribe(onCompleted: { connection.close() })
        }
        XCTAssertEqual(answer, "first, kept")
        XCTAssertFalse(told, "a disposed write told its subscriber")
    }

    func testCloseWhileHandling_FailsHeldWritesWithECANCELED() {
        var failure: UVError?
        let answer = exchange("go") { connection, _ in
            _ = connection.write("sent").subscribe()
            _ = connection.write("lost").subscribe(onError: { failure = $0 as? UVError })
            connection.close()
        }
        XCTAssertEqual(answer, "sent")
        XCTAssertEqual(failure?.code, .cancelled)
        XCTAssertEqual(failure?.operation, "uv_write")
    }

    func testGracefulCloseWhileHandling_WritesTheHeldWritesFirst() {
        var completed = false
        let answer = exchange("go") { connection, _ in
            _ = connection.write("last ").subscribe()
            _ = connection.write("words").subscribe(onCompleted: { completed = true })
            connection.close(.afterWrites)
        }
        XCTAssertEqual(answer, "last words")
        XCTAssertTrue(completed)
    }

    /// Writes chained on held ones (`andThen`) go out before a graceful
    /// close made in the same handling closes the stream.
    func testChainedWritesThenGracefulClose_AllGoOut() {
        var completed = false
        let answer = exchange("go") { connection, _ in
            _ = connection.write("a").andThen(connection.write("b")).andThen(connection.write("c"))
                .subscribe(onCompleted: { completed = true })
            _ = connection.write("d").andThen(connection.write("e")).subscribe()
            connection.close(.afterWrites)
        }
        XCTAssertEqual(answer.sorted(), Array("abcde"))
        XCTAssertTrue(answer.hasPrefix("a") && answer.firstIndex(of: "b")! < answer.firstIndex(of: "c")!, answer)
        XCTAssertTrue(completed)
    }

    /// Outside a read's handling (here, a timer), a write goes out at once
    /// and completes during subscribe when the kernel takes it.
    func testWriteOutsideAReadsHandling_IsNotHeld() {
        var completedDuringSubscribe: Bool?
        let answer = exchange("go") { connection, _ in
            _ = self.loop.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in
                var completed = false
                _ = connection.write("now").subscribe(onCompleted: { completed = true })
                completedDuringSubscribe = completed
                connection.close(.afterWrites)
            })
        }
        XCTAssertEqual(answer, "now")
        XCTAssertEqual(completedDuringSubscribe, true)
    }

    /// Held bytes count against the high watermark: past it, the batch goes
    /// out during the handling, where the write queue and its backpressure
    /// (unwritable, reading paused) see it, instead of every write of the
    /// read being held to its end. Later writes of the read are held again;
    /// everything arrives in order.
    func testHeldBytesPastTheHighWatermark_GoOutDuringTheHandling() {
        var told: [Int] = []
        var toldDuringHandling: [Int] = []
        var heldAfterEarlyBatch = false
        let part = String(repeating: "x", count: 1000)
        let answer = exchange("go") { connection, _ in
            connection.highWatermark = 4000
            for index in 0..<10 {
                _ = connection.write(part).subscribe(onCompleted: { told.append(index) })
            }
            heldAfterEarlyBatch = connection.holdsNextWrite()
            toldDuringHandling = told
            connection.close(.afterWrites)
        }
        XCTAssertEqual(answer, String(repeating: part, count: 10))
        // The 1st write goes out at once; the 2nd to 6th are held until the
        // 6th passes 4,000 held bytes, then go out together.
        XCTAssertEqual(toldDuringHandling, [0, 1, 2, 3, 4, 5])
        XCTAssertEqual(told, Array(0..<10))
        XCTAssertTrue(heldAfterEarlyBatch, "writes after an early batch are held again until the handling ends")
    }
}
