import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// `rx.upgrade`: the request asks to switch, a `101` gives the caller the
/// connection (out of its pool, its reading as `inbound` with the bytes
/// that came with the head first), anything else is `.upgradeRefused`;
/// closing either side ends the other. Against RxUV's own server's
/// upgrade (over TCP) and scripted servers.
final class HTTPClientUpgradeTests: BridgeTestCase {
    /// A server protocol that answers every read upper-cased and ends at
    /// `bye` (after `BYE`).
    private static let shout = HTTPUpgrade { connection in
        Completable.create { observer in
            let stream = connection.stream
            let reading = stream.receivedData.subscribe(
                onNext: { bytes in
                    if bytes.string == "bye" {
                        _ = stream.write("BYE").subscribe()
                        observer(.completed)
                    } else {
                        _ = stream.write(bytes.string.uppercased()).subscribe()
                    }
                },
                onCompleted: { observer(.completed) })
            return reading
        }
    }

    private static let router: HTTPHandler = { request in
        switch request.path {
        case "/shout" where request.asksToUpgrade:
            return .just(.switchingProtocols(to: "shout", HTTPClientUpgradeTests.shout))
        case "/forbidden":
            return .just(.text("no shouting here", status: .forbidden))
        default:
            return .just(.text("plain"))
        }
    }

    /// The next `count` bytes `inbound` delivers, as text.
    private static func read(_ iterator: inout ObservableValues<ByteBuffer>.AsyncIterator, _ count: Int) async throws -> String {
        var text = ""
        while text.utf8.count < count, let piece = try await iterator.next() { text += piece.string }
        return text
    }

    /// Switched against RxUV's server: the 101's head, then the new
    /// protocol both ways on the same connection; the server's end ends
    /// `inbound`. The client's pool no longer counts the connection: its
    /// shutdown completes while the upgrade is open.
    func testUpgrade_AgainstRxUVServer_BothWaysThenTheServersEnd() throws {
        let result = try withClient(handler: Self.router) { client, port in
            let upgrade = try await client.rx.upgrade(local(port, "/shout"), to: "shout").value
            var inbound = upgrade.inbound.values.makeAsyncIterator()
            _ = try await upgrade.stream.write("hello").value
            let first = try await Self.read(&inbound, 5)
            _ = try await upgrade.stream.write("bye").value
            let second = try await Self.read(&inbound, 3)
            let end = try await inbound.next()
            let plain = try await client.execute(local(port, "/")).text()
            return [
                "\(upgrade.head.status.code)", upgrade.head.headerFields[.upgrade] ?? "-", upgrade.head.headerFields[.connection] ?? "-",
                first, second, end == nil ? "ended" : "more", plain,
            ]
        }
        XCTAssertEqual(result, ["101", "shout", "Upgrade", "HELLO", "BYE", "ended", "plain"])
    }

    /// Bytes the server sends in the same write as its 101 come first in
    /// `inbound`; `close()` closes the connection after the writes, and
    /// the server reads its end.
    func testUpgrade_BytesWithTheHeadFirst_CloseEndsTheServersReading() throws {
        let serverSaw = Shared<String>("")
        let result = try withRawServer(serve: { connection in
            connection.rx.data
                .scan("") { $0 + $1.string }
                .do(onNext: { serverSaw.value = $0 })
                .filter { $0.hasSuffix("\r\n\r\n") }
                .take(1)
                .flatMap { _ in
                    connection.write("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: shout\r\n\r\nEARLY").asObservable()
                }
                .concat(connection.rx.data.do(onNext: { bytes in serverSaw.mutate { $0 += bytes.string } }).ignoreElements())
                .asCompletable()
        }) { client, port in
            let upgrade = try await client.rx.upgrade(local(port, "/raw"), to: "shout").value
            var inbound = upgrade.inbound.values.makeAsyncIterator()
            let early = try await Self.read(&inbound, 5)
            _ = try await upgrade.stream.write("last words").value
            upgrade.close()
            let end = try await inbound.next()
            return [early, end == nil ? "ended" : "more"]
        }
        XCTAssertEqual(result, ["EARLY", "ended"])
        let request = serverSaw.value
        XCTAssertTrue(request.hasPrefix("GET /raw HTTP/1.1\r\n"), request)
        XCTAssertTrue(request.contains("\r\nUpgrade: shout\r\n"), request)
        XCTAssertTrue(request.contains("\r\nConnection: Upgrade\r\n"), request)
        XCTAssertTrue(request.hasSuffix("\r\n\r\nlast words"), request)
    }

    /// Anything but a 101 is `.upgradeRefused` with the status, and the
    /// connection stays in the pool for the next request; a 101 to a
    /// request that did not ask is `.unexpectedUpgrade`.
    func testRefusedAndUnasked() throws {
        let result = try withClient(handler: Self.router) { client, port in
            var outcomes: [String] = []
            do {
                _ = try await client.rx.upgrade(local(port, "/forbidden"), to: "shout").value
                outcomes.append("upgraded")
            } catch let error as HTTPClientError {
                outcomes.append("\(error.code) \(error.detail)")
            }
            outcomes.append(try await client.execute(local(port, "/")).text())
            return outcomes
        }
        XCTAssertEqual(result.count, 2)
        XCTAssertTrue(result[0].hasPrefix("upgradeRefused http://127.0.0.1:"), result[0])
        XCTAssertTrue(result[0].hasSuffix("/forbidden answered 403 Forbidden to an upgrade to shout"), result[0])
        XCTAssertEqual(result[1], "plain")

        let unasked = try withRawServer(serve: answering { _ in RawAnswer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n") }) { client, port in
            do {
                _ = try await client.execute(local(port, "/"))
                return "answered"
            } catch let error as HTTPClientError {
                return "\(error.code)"
            }
        }
        XCTAssertEqual(unasked, "unexpectedUpgrade")
    }

    /// Letting `inbound` go closes the connection: the server reads its
    /// end.
    func testInboundLetGo_ClosesTheConnection() throws {
        let ended = Flag()
        let result = try withRawServer(serve: { connection in
            connection.rx.data
                .filter { $0.string.hasSuffix("\r\n\r\n") }
                .take(1)
                .flatMap { _ in connection.write("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n").asObservable() }
                .concat(connection.rx.data.ignoreElements().do(onCompleted: { ended.set() }))
                .asCompletable()
        }) { client, port in
            let upgrade = try await client.rx.upgrade(local(port, "/"), to: "x").value
            let subscription = upgrade.inbound.bytes.subscribe()
            subscription.dispose()
            for _ in 0..<200 where !ended.isSet {
                try await Task.sleep(for: .milliseconds(5))
            }
            return ended.isSet
        }
        XCTAssertTrue(result)
    }
}
