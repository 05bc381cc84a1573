import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class TCPOptionsTests: BridgeTestCase {
    func testEcho_OverIPv6Loopback() {
        let bound = Shared<SocketAddress?>(nil)
        var failure: Error?
        let server = loop.rx.listen(host: "::1", port: 0, onListening: { bound.value = $0 })
            .subscribe(
                onNext: { connection in
                    _ = connection.rx.data.subscribe(onNext: { _ = connection.write($0).subscribe() })
                }, onError: { failure = $0 })
        guard let address = bound.value else {
            // A machine without IPv6 on loopback reports it as an error.
            XCTAssertNotNil(failure)
            server.dispose()
            runLoop()
            return
        }
        XCTAssertTrue(address.isIPv6)
        XCTAssertEqual(address.description, "[::1]:\(address.port)")
        var echoed = ""
        _ = loop.rx.connect(host: "::1", port: address.port).subscribe(
            onSuccess: { client in
                XCTAssertEqual(client.remoteAddress, address)
                _ = client.rx.data.subscribe(onNext: { echoed += $0.string }, onCompleted: { server.dispose() })
                _ = client.write("six").andThen(client.shutdown()).subscribe()
            },
            onFailure: {
                XCTFail("connect failed: \($0)")
                server.dispose()
            })
        runLoop()
        XCTAssertEqual(echoed, "six")
    }

    func testOptions_NoDelayAndKeepAlive() {
        let server = startEchoServer(on: loop)
        var results: [String] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            _ = client.setNoDelay(false)
                .andThen(client.setKeepAlive(true, delay: .seconds(30)))
                .andThen(client.setKeepAlive(false))
                .subscribe(onCompleted: { results.append("set") }, onError: { results.append("error \($0)") })
            client.close()
            _ = client.setNoDelay(true).subscribe(onError: { results.append(($0 as? UVError)?.name ?? "\($0)") })
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(results, ["set", "ENOTCONN"])
    }

    /// `setKeepAlive(_:delay:)` takes the delay as an `RxTimeInterval` or a
    /// `Duration` (RxUV's time rule): for each row, it completes on an open
    /// connection and fails with `ENOTCONN` on a closed one.
    func testKeepAlive_RxTimeIntervalOrDuration() {
        let rows: [(name: String, set: (TCPConnection) -> Completable)] = [
            ("RxTimeInterval", { $0.setKeepAlive(true, delay: .seconds(30)) }),
            ("Duration", { $0.setKeepAlive(true, delay: Duration.seconds(30)) }),
            ("Duration under a second (1 s)", { $0.setKeepAlive(true, delay: Duration.milliseconds(300)) }),
            ("Duration, off", { $0.setKeepAlive(false, delay: Duration.seconds(1)) }),
        ]
        for row in rows {
            let server = startEchoServer(on: loop)
            var results: [String] = []
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
                _ = row.set(client).subscribe(onCompleted: { results.append("set") }, onError: { results.append("error \($0)") })
                client.close()
                _ = row.set(client).subscribe(onError: { results.append(($0 as? UVError)?.name ?? "\($0)") })
                server.subscription.dispose()
            })
            runLoop()
            XCTAssertEqual(results, ["set", "ENOTCONN"], row.name)
        }
    }
}
