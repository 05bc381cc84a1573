import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class TCPEchoTests: BridgeTestCase {
    func testEcho_OneMebibyteByteExact() {
        let server = startEchoServer(on: loop)
        let payload = randomBytes(count: 1 << 20)
        var received: [UInt8] = []
        var completed = false
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(
            onSuccess: { client in
                _ = client.rx.data.subscribe(
                    onNext: { received.append(contentsOf: $0) },
                    onCompleted: {
                        completed = true
                        server.subscription.dispose()
                    }
                )
                _ = client.write(payload).andThen(client.shutdown()).subscribe()
            }, onFailure: { XCTFail("connect failed: \($0)") })
        runLoop(timeout: 30)
        XCTAssertTrue(completed)
        XCTAssertEqual(received.count, payload.count)
        XCTAssertTrue(received == payload, "echoed bytes differ")
    }

    func testEcho_TwoHundredConcurrentClients() {
        let server = startEchoServer(on: loop)
        let clients = 200
        var finished = 0
        var mismatches = 0
        for index in 0..<clients {
            let payload = randomBytes(count: 16 * 1024 + index, seed: UInt64(index + 1))
            var received: [UInt8] = []
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(
                onSuccess: { client in
                    _ = client.rx.data.subscribe(
                        onNext: { received.append(contentsOf: $0) },
                        onCompleted: {
                            if received != payload { mismatches += 1 }
                            finished += 1
                            if finished == clients { server.subscription.dispose() }
                        })
                    _ = client.write(payload).andThen(client.shutdown()).subscribe()
                }, onFailure: { XCTFail("connect \(index) failed: \($0)") })
        }
        runLoop(timeout: 60)
        XCTAssertEqual(finished, clients)
        XCTAssertEqual(mismatches, 0)
    }

    func testEcho_ConnectionAddresses() {
        var serverSide: TCPConnection?
        let server = startEchoServer(on: loop) { serverSide = $0 }
        var clientSide: TCPConnection?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            clientSide = client
            server.subscription.dispose()
            client.close()
        })
        runLoop()
        XCTAssertEqual(clientSide?.remoteAddress, server.address)
        XCTAssertEqual(serverSide?.remoteAddress, clientSide?.localAddress)
        XCTAssertEqual(clientSide?.isClosed, true)
    }
}
