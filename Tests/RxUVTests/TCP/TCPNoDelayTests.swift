import Dispatch
import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Every TCP connection RxUV makes has `TCP_NODELAY` set, however it came
/// to be: accepted by `loop.rx.listen`, accepted by a `Server` (on another
/// loop of its group), or connected by `loop.rx.connect`. Read back with
/// `getsockopt` on the connection's own descriptor.
final class TCPNoDelayTests: BridgeTestCase {
    /// `TCP_NODELAY` on `connection`'s socket, read on its loop thread.
    private static func noDelay(of connection: TCPConnection) -> Int32? {
        guard let descriptor = connection.handle.descriptor else { return nil }
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 else { return nil }
        return value
    }

    func testNoDelay_OnEveryAcceptedAndConnectedSocket() throws {
        let group = try LoopGroup(threads: 2)
        defer { XCTAssertNoThrow(try group.shutdown()) }
        let seen = Shared<[String: Int32?]>([:])
        let served = DispatchSemaphore(value: 0)
        let server = Shared<Server?>(nil)
        let started = DispatchSemaphore(value: 0)
        _ = group.rx.serve(host: "127.0.0.1", port: 0) { connection in
            seen.mutate { $0["Server"] = Self.noDelay(of: connection.connection) }
            served.signal()
            return .empty()
        }.subscribe(onSuccess: {
            server.value = $0
            started.signal()
        })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        let serverPort = try XCTUnwrap(server.value).address.port

        let port = Shared(0)
        let listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                seen.mutate { $0["listen"] = Self.noDelay(of: connection) }
                connection.close()
            })
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            seen.mutate { $0["connect"] = Self.noDelay(of: client) }
            _ = client.rx.data.subscribe(onCompleted: { listener.dispose() })
        })
        _ = loop.rx.connect(host: "127.0.0.1", port: serverPort).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe()
        })
        runLoop()
        XCTAssertEqual(served.wait(timeout: .now() + 5), .success)
        let done = DispatchSemaphore(value: 0)
        _ = server.value?.drain(deadline: .seconds(0)).subscribe(onCompleted: { done.signal() })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        server.value = nil
        XCTAssertEqual(seen.value["Server"], 1)
        XCTAssertEqual(seen.value["listen"], 1)
        XCTAssertEqual(seen.value["connect"], 1)
    }
}
