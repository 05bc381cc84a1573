import RxCore
import XCTest

@testable import RxUV

/// A read reuses the previous read's storage once nothing holds it: an echo
/// that writes each read back at once allocates no new buffer per read.
final class TCPReadStorageTests: BridgeTestCase {
    func testRead_ReusesReleasedStorage() {
        var storages: [ObjectIdentifier] = []
        var server: Disposable?
        let port = Shared(0)
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                _ = connection.rx.data
                    .flatMap { bytes -> Completable in
                        storages.append(ObjectIdentifier(bytes.storage))
                        return connection.write(bytes)
                    }
                    .subscribe()
                server?.dispose()
            })
        var echoes = 0
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { _ in
                echoes += 1
                if echoes == 4 {
                    client.close()
                } else {
                    _ = client.write("ping \(echoes)").subscribe()
                }
            })
            _ = client.write("ping 0").subscribe()
        })
        runLoop()
        XCTAssertEqual(echoes, 4)
        XCTAssertEqual(storages.count, 4)
        XCTAssertEqual(Set(storages).count, 1, "each read allocated new storage")
    }
}
