import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// The echo server of README.md, on an OS-chosen port, driven by clients.
final class ReadmeEchoServerTests: BridgeTestCase {
    func testReadmeEchoServer_EchoesAndSurvivesAResettingClient() {
        let port = Shared(0)
        let server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .flatMap { connection in
                connection.rx.data
                    .flatMap { connection.write($0) }
                    .catch { _ in .empty() }
            }
            .subscribe(onError: { XCTFail("echo-server: \($0)") })

        // One client resets mid-stream; the next ones must still be served.
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.write(randomBytes(count: 256 * 1024)).subscribe(onError: { _ in })
            client.reset()
        })
        var echoed: [String] = []
        for index in 0..<3 {
            _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
                var text = ""
                _ = client.rx.data.subscribe(
                    onNext: { text += $0.string },
                    onCompleted: {
                        echoed.append(text)
                        if echoed.count == 3 { server.dispose() }
                    })
                _ = client.write("hello \(index)").andThen(client.shutdown()).subscribe()
            })
        }
        runLoop()
        XCTAssertEqual(echoed.sorted(), ["hello 0", "hello 1", "hello 2"])
    }
}
