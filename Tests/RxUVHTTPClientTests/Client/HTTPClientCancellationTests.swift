import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// Disposing a request, its body's subscription, or letting a body go
/// unread, at each moment of an exchange: the connection it was on is
/// closed (never returned to the pool mid-response), and the next request
/// is served on a new one. The leak gates check that nothing stays.
final class HTTPClientCancellationTests: BridgeTestCase {
    /// Routes: the peer, a body that comes slowly (one piece, then another
    /// after 100 ms, up to 50), a large body, and an answer that never comes.
    static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/peer") { request in .just(.text(request.peer ?? "?")) }
        router.get("/large") { request in
            .just(HTTPServerResponse(body: .bytes(ByteBuffer([UInt8](repeating: 0x62, count: 4 << 20)))))
        }
        router.get("/never") { _ in .never() }
        router.get("/slow-body") { request in
            let pieces = Observable<Int>.interval(.milliseconds(100), scheduler: request.loop).take(50).map { _ in ByteBuffer(string: "piece ") }
            return .just(HTTPServerResponse(body: .stream(pieces)))
        }
        return router
    }

    /// The peer of the connection a request went on.
    private static func peer(_ client: HTTPClient, _ port: Int) async throws -> String {
        try await client.execute(local(port, "/peer")).text()
    }

    /// Disposed while waiting for the head: the connection closes; the
    /// next request goes on a new one.
    func testDisposeBeforeHead_ClosesTheConnection() throws {
        let (before, after) = try withClient(handler: Self.router.handler) { [loop = loop!] client, port in
            let before = try await Self.peer(client, port)
            let subscription = client.rx.send(local(port, "/never")).subscribe { _ in XCTFail("answered") }
            try await Task.sleep(for: .milliseconds(50))
            subscription.dispose()
            _ = loop
            return (before, try await Self.peer(client, port))
        }
        XCTAssertNotEqual(before, after)
    }

    /// A task cancelled while its request waits for the head throws
    /// `CancellationError`, and the connection is closed.
    func testTaskCancelled_ThrowsCancellation() throws {
        let (outcome, before, after) = try withClient(handler: Self.router.handler) { client, port in
            let before = try await Self.peer(client, port)
            let task = Task { try await client.execute(local(port, "/never")) }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            let outcome: String
            do {
                _ = try await task.value
                outcome = "answered"
            } catch is CancellationError {
                outcome = "cancelled"
            }
            return (outcome, before, try await Self.peer(client, port))
        }
        XCTAssertEqual(outcome, "cancelled")
        XCTAssertNotEqual(before, after)
    }

    /// The body's subscription disposed after its first piece: the rest
    /// is not read, the connection closes.
    func testDisposeBodyMidway_ClosesTheConnection() throws {
        let (first, before, after) = try withClient(handler: Self.router.handler) { client, port in
            let before = try await Self.peer(client, port)
            let response = try await client.execute(local(port, "/slow-body"))
            let first = try await response.body.bytes.take(1).asSingle().value
            return (first.string, before, try await Self.peer(client, port))
        }
        XCTAssertEqual(first, "piece ")
        XCTAssertNotEqual(before, after)
    }

    /// An iteration of `values` ended early: the same.
    func testValuesIterationEndedEarly_ClosesTheConnection() throws {
        let (count, before, after) = try withClient(handler: Self.router.handler) { client, port in
            let before = try await Self.peer(client, port)
            let response = try await client.execute(local(port, "/large"))
            var count = 0
            for try await piece in response.body.values {
                count += piece.count
                if count > 100_000 { break }
            }
            return (count, before, try await Self.peer(client, port))
        }
        XCTAssertGreaterThan(count, 100_000)
        XCTAssertLessThan(count, 4 << 20)
        XCTAssertNotEqual(before, after)
    }

    /// A response let go with its body unread: the connection closes once
    /// the last reference goes, and the pool goes on.
    func testBodyLetGoUnread_ClosesTheConnection() throws {
        let (status, before, after) = try withClient(handler: Self.router.handler) { client, port in
            let before = try await Self.peer(client, port)
            let status = try await client.execute(local(port, "/large")).status
            return (status, before, try await Self.peer(client, port))
        }
        XCTAssertEqual(status, .ok)
        XCTAssertNotEqual(before, after)
    }

    /// A body read whole keeps its connection.
    func testBodyReadWhole_KeepsTheConnection() throws {
        let (before, after) = try withClient(handler: Self.router.handler) { client, port in
            let before = try await Self.peer(client, port)
            _ = try await client.execute(local(port, "/large")).body.collect(upTo: 8 << 20).value
            return (before, try await Self.peer(client, port))
        }
        XCTAssertEqual(before, after)
    }

    /// The whole-exchange timeout fails a body that is still arriving with
    /// `.requestTimeout`, and closes the connection.
    func testRequestTimeout_FailsTheBody() throws {
        let outcome = try withClient(handler: Self.router.handler) { client, port in
            let response = try await client.execute(local(port, "/slow-body"), timeout: .milliseconds(250))
            do {
                _ = try await response.body.collect(upTo: 1 << 20).value
                return "read whole"
            } catch let error as HTTPClientError {
                return "\(error.code)"
            }
        }
        XCTAssertEqual(outcome, "requestTimeout")
    }

    /// The head timeout: a handler that never answers.
    func testHeadTimeout() throws {
        let outcome = try withClient(HTTPClientConfiguration(headTimeout: .milliseconds(100)), handler: Self.router.handler) { client, port in
            do {
                _ = try await client.execute(local(port, "/never"))
                return "answered"
            } catch let error as HTTPClientError {
                return "\(error.code)"
            }
        }
        XCTAssertEqual(outcome, "headTimeout")
    }
}
