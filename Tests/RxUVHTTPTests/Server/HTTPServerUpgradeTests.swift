import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// Switching protocols (RFC 9110 §7.8): a `101` with an `HTTPUpgrade`
/// hands the connection to the new protocol, whose `Completable` is then
/// the connection's life; a 101 the request did not ask for, or one
/// without an upgrade, is a `500` and a report; bytes sent before the
/// answer are a `400`; a drain reaches the new protocol.
final class HTTPServerUpgradeTests: BridgeTestCase {
    private static let noTimers = HTTPServerOptions(headTimeout: .zero, idleTimeout: .zero)

    private static let upgradeRequest = "GET /up HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\nUpgrade: shout\r\n\r\n"

    /// A protocol that answers every read upper-cased, says `BYE` and ends
    /// at `bye`, and says `GOING AWAY` and ends at the server's drain.
    /// Counts its subscriptions and disposals.
    private final class Shout: Sendable {
        let started = Counter()
        let disposed = Counter()

        var upgrade: HTTPUpgrade {
            HTTPUpgrade { [self] connection in
                Completable.create { observer in
                    _ = self.started.increment()
                    let stream = connection.stream
                    let reading = stream.receivedData.subscribe(onNext: { bytes in
                        let text = bytes.string
                        if text == "bye" {
                            _ = stream.write("BYE").subscribe()
                            observer(.completed)
                        } else {
                            _ = stream.write(text.uppercased()).subscribe()
                        }
                    })
                    let quiescing = connection.quiesce.subscribe(onNext: {
                        _ = stream.write("GOING AWAY").subscribe()
                        observer(.completed)
                    })
                    return Disposables.create {
                        _ = self.disposed.increment()
                        reading.dispose()
                        quiescing.dispose()
                    }
                }
            }
        }

        var handler: HTTPHandler {
            { [self] request in
                guard request.asksToUpgrade else { return .just(.text("no upgrade asked")) }
                return .just(.switchingProtocols(to: "shout", headerFields: [HTTPField.Name("X-Proto")!: "1"], upgrade))
            }
        }
    }

    /// The 101's head (with the handler's fields, no Content-Length, no
    /// Connection: close), then the new protocol on the same connection
    /// until it ends, and the server's close after its last write.
    func testUpgrade_SwitchesThenTheProtocolsLifeIsTheConnections() {
        let shout = Shout()
        let records = Shared<[Int]>([])
        var options = Self.noTimers
        options.onResponse = { record in records.mutate { $0.append(record.status.code) } }
        let connection = InMemoryHTTPConnection(on: loop, http: options, handler: shout.handler)
        connection.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n" + Self.upgradeRequest)
        runLoop()
        let written = connection.client.string
        XCTAssertEqual(written.statusCodes, [200, 101])
        let head = String(written[(written.range(of: "HTTP/1.1 101")?.lowerBound ?? written.endIndex)...])
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: shout\r\nX-Proto: 1\r\n"), head)
        XCTAssertTrue(head.hasSuffix("\r\n\r\n"), head)
        XCTAssertFalse(head.lowercased().contains("content-length"), head)
        XCTAssertFalse(head.lowercased().contains("transfer-encoding"), head)
        XCTAssertFalse(head.contains("Connection: close"), head)
        XCTAssertEqual(records.value, [200, 101])
        XCTAssertEqual(shout.started.current, 1)
        XCTAssertNil(connection.life)

        connection.send("hello")
        runLoop()
        XCTAssertTrue(connection.client.string.hasSuffix("\r\n\r\nHELLO"), connection.client.string)
        // A request's bytes now are the protocol's, not HTTP's.
        connection.send("GET / HTTP/1.1")
        runLoop()
        XCTAssertTrue(connection.client.string.hasSuffix("HELLOGET / HTTP/1.1"))
        connection.send("bye")
        runLoop()
        XCTAssertTrue(connection.client.string.hasSuffix("BYE"))
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed, "the server closed after its writes")
        XCTAssertEqual(shout.disposed.current, 1)
        connection.close()
    }

    /// Misuses and requests that cannot switch: each answered in the
    /// handler's place, then the connection closes; the misuses reported.
    func testRefusals_EachAnsweredAndClosed() throws {
        let shout = Shout()
        let plain101: HTTPHandler = { _ in .just(HTTPServerResponse(status: .switchingProtocols)) }
        let upgradeOn200: HTTPHandler = { _ in
            var response = HTTPServerResponse.switchingProtocols(to: "shout", shout.upgrade)
            response.head.status = .ok
            return .just(response)
        }
        let always: HTTPHandler = { _ in .just(.switchingProtocols(to: "shout", shout.upgrade)) }
        let rows: [(String, HTTPHandler, String, Int, [String])] = [
            ("a 101 without an upgrade", plain101, Self.upgradeRequest, 500, ["a 101 without an HTTPUpgrade (answer HTTPServerResponse.switchingProtocols)"]),
            ("an upgrade on a 200", upgradeOn200, Self.upgradeRequest, 500, ["an HTTPUpgrade on a 200, not a 101"]),
            (
                "no Upgrade asked", always, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 500,
                ["a 101 to a request that did not ask to upgrade (Upgrade and Connection: upgrade, HTTP/1.1)"]
            ),
            (
                "Upgrade not in Connection", always, "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: shout\r\n\r\n", 500,
                ["a 101 to a request that did not ask to upgrade (Upgrade and Connection: upgrade, HTTP/1.1)"]
            ),
            (
                "HTTP/1.0", always, "GET / HTTP/1.0\r\nConnection: upgrade\r\nUpgrade: shout\r\n\r\n", 500,
                ["a 101 to a request that did not ask to upgrade (Upgrade and Connection: upgrade, HTTP/1.1)"]
            ),
            (
                "a body", always, "POST / HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: shout\r\nContent-Length: 2\r\n\r\nhi", 500,
                ["a 101 to a request with a body"]
            ),
            ("bytes before the answer", always, Self.upgradeRequest + "early", 400, []),
        ]
        for (name, handler, request, status, reported) in rows {
            let reports = CapturedReports(on: loop)
            let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: handler)
            connection.send(request)
            runLoop()
            XCTAssertEqual(connection.client.string.statusCodes, [status], name)
            XCTAssertEqual(connection.life, "completed", name)
            XCTAssertTrue(connection.client.string.contains("Connection: close\r\n"), name)
            XCTAssertEqual(reports.names, reported, name)
            connection.close()
        }
        XCTAssertEqual(shout.started.current, 0, "no refused upgrade ran")
    }

    /// Bytes that arrive in a later read, while the answer to a request
    /// that asks to upgrade is pending, are HTTP's: the 101 is refused
    /// (400). An upgrade the handler declines leaves HTTP as it was: the
    /// requests after it are served.
    func testLaterBytes_RefuseTheSwitch_ADeclinedUpgradeKeepsServing() {
        let shout = Shout()
        let answers = PublishSubject<HTTPServerResponse>()
        let held = InMemoryHTTPConnection(on: loop, http: Self.noTimers) { _ in answers.take(1).asSingle() }
        held.send(Self.upgradeRequest)
        runLoop()
        held.send("\u{0}early")
        runLoop()
        answers.onNext(.switchingProtocols(to: "shout", shout.upgrade))
        runLoop()
        XCTAssertEqual(held.client.string.statusCodes, [400])
        XCTAssertTrue(held.client.string.hasSuffix("bytes after an upgrade request before its answer\n"), held.client.string)
        XCTAssertEqual(held.life, "completed")
        XCTAssertEqual(shout.started.current, 0)
        held.close()

        let declining = InMemoryHTTPConnection(on: loop, http: Self.noTimers) { request in
            .just(.text(request.asksToUpgrade ? "declined" : String(request.path)))
        }
        declining.send(Self.upgradeRequest + "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        runLoop()
        XCTAssertEqual(declining.client.string.statusCodes, [200, 200])
        XCTAssertEqual(declining.client.string.responseBodies, ["declined", "/next"])
        XCTAssertNil(declining.life)
        declining.close()
    }

    /// A drain reaches the upgraded protocol through `quiesce`: it says
    /// goodbye and ends, and the connection closes after its write; one
    /// that comes while the upgrade's answer is pending is a 503.
    func testDrain_ReachesTheProtocol_AndRefusesAPendingUpgrade() {
        let shout = Shout()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: shout.handler)
        connection.send(Self.upgradeRequest)
        runLoop()
        connection.drain()
        runLoop()
        XCTAssertTrue(connection.client.string.hasSuffix("\r\n\r\nGOING AWAY"), connection.client.string)
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed)
        connection.close()

        let answers = PublishSubject<HTTPServerResponse>()
        let held = InMemoryHTTPConnection(on: loop, http: Self.noTimers) { _ in answers.take(1).asSingle() }
        held.send(Self.upgradeRequest)
        runLoop()
        held.drain()
        runLoop()
        answers.onNext(.switchingProtocols(to: "shout", shout.upgrade))
        runLoop()
        XCTAssertEqual(held.client.string.statusCodes, [503])
        XCTAssertEqual(held.life, "completed")
        XCTAssertEqual(shout.started.current, 1, "only the first connection's upgrade ran")
        held.close()
    }

    /// The server's reset (the life disposed) disposes the upgraded
    /// protocol.
    func testStop_DisposesTheProtocol() {
        let shout = Shout()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: shout.handler)
        connection.send(Self.upgradeRequest)
        runLoop()
        XCTAssertEqual(shout.started.current, 1)
        connection.stop()
        runLoop()
        XCTAssertEqual(shout.disposed.current, 1)
        XCTAssertNil(connection.life)
        connection.close()
    }
}
