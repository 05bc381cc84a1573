import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// After a fault injected into one libuv call (`UVFaultInjection`), the
/// same objects go on working: a connection whose write failed, a listener
/// that failed to accept, the loop's own work when its idle handle cannot
/// start. Each test ends with no handle or object leaked.
final class UVFaultRecoveryTests: BridgeTestCase {
    override func tearDownWithError() throws {
        UVFaultInjection.removeAll()
        try super.tearDownWithError()
    }

    func testFaultInjection_WriteFailureLeavesTheConnectionUsable() {
        let server = startEchoServer(on: loop)
        var errors: [String] = []
        var echoed: [UInt8] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            UVFaultInjection.inject(-EPIPE, into: "uv_write")
            _ = client.write("lost").subscribe(onError: { errors.append(($0 as? UVError)?.name ?? "\($0)") })
            _ = client.write("kept").andThen(client.shutdown()).subscribe(onError: { errors.append("\($0)") })
            _ = client.rx.data.subscribe(onNext: { echoed += $0 }, onCompleted: { server.subscription.dispose() })
        })
        runLoop()
        XCTAssertEqual(errors, ["EPIPE"])
        XCTAssertEqual(String(decoding: echoed, as: UTF8.self), "kept")
    }

    func testFaultInjection_AcceptFailureEndsTheListenerAndRetryListensAgain() {
        let port = Shared(0)
        var events: [String] = []
        var served: [TCPConnection] = []
        // Listen on a fixed port, so that after the failure `retry` binds the same one.
        _ = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe().dispose()
        loop.runNoWait()
        UVFaultInjection.inject(-EINVAL, into: "accept")
        let listener = loop.rx.listen(host: "127.0.0.1", port: port.value)
            .do(onError: { events.append("listen error: \(($0 as? UVError)?.description ?? "\($0)")") })
            .retry(2)
            .subscribe(onNext: { connection in
                served.append(connection)
                events.append("accepted")
                connection.close()
            })
        func connectOnce(then next: @escaping () -> Void) {
            _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(
                onSuccess: { client in
                    _ = client.rx.data.subscribe(onError: { _ in next() }, onCompleted: next)
                }, onFailure: { _ in next() })
        }
        connectOnce {
            connectOnce { listener.dispose() }
        }
        runLoop()
        XCTAssertEqual(events, ["listen error: accept 127.0.0.1:\(port.value): EINVAL (invalid argument)", "accepted"])
        XCTAssertEqual(served.count, 1)
        served.removeAll()
    }

    /// Work the loop thread queues for itself runs on the loop's next turn
    /// through its idle handle; when that handle cannot start, the wake-up
    /// handle runs it instead, in order, and `run()` still returns once it
    /// has run.
    func testLoopThreadWork_RunsThroughTheWakeupWhenTheIdleHandleCannotStart() {
        let ran = Box<[Int]>([])
        UVFaultInjection.inject(-EINVAL, into: "uv_idle_start", times: 2)
        loop.execute { ran.value.append(1) }
        loop.execute { ran.value.append(2) }
        runLoop()
        XCTAssertEqual(ran.value, [1, 2])
        XCTAssertEqual(UVFaultInjection.firedCount("uv_idle_start"), 2)
        // The idle handle starts again next time.
        loop.execute { ran.value.append(3) }
        runLoop()
        XCTAssertEqual(ran.value, [1, 2, 3])
    }

    /// Out of descriptors while accepting: reported once, accepting pauses,
    /// and the waiting client is served after the pause, as is the next.
    func testFaultInjection_TransientAcceptFailureKeepsListening() {
        let reported = CapturedReports(on: loop)
        let server = startEchoServer(on: loop)
        UVFaultInjection.inject(-EMFILE, into: "accept")
        var echoed: [String] = []
        func echo(_ line: String, then next: @escaping () -> Void) {
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
                var received = ""
                _ = client.rx.data.subscribe(
                    onNext: { received += $0.string },
                    onCompleted: {
                        echoed.append(received)
                        next()
                    })
                _ = client.write(line).andThen(client.shutdown()).subscribe()
            })
        }
        echo("after the pause") {
            echo("still here") { server.subscription.dispose() }
        }
        runLoop()
        XCTAssertEqual(reported.names, ["EMFILE"])
        XCTAssertEqual(echoed, ["after the pause", "still here"])
        XCTAssertEqual(UVFaultInjection.firedCount("accept"), 1)
    }
}
