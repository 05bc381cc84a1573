import HTTPTypes
import MetricsTestKit
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// The pool: its bound on connections and on the queue, keep-alive reuse,
/// idle connections closed by either side, the retry on a stale
/// connection, and the metrics that count all of it.
final class HTTPConnectionPoolTests: BridgeTestCase {
    private let metrics = TestMetrics()

    private func configuration(_ change: (inout HTTPClientConfiguration) -> Void = { _ in }) -> HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration(metricsFactory: metrics, metricsLabel: "pool-test")
        change(&configuration)
        return configuration
    }

    private func meter(_ name: String) throws -> Double {
        try metrics.expectMeter("rxuv_http_client_\(name)", [("client", "pool-test")]).lastValue ?? 0
    }

    static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/peer") { request in .just(.text(request.peer ?? "?")) }
        router.get("/never") { _ in .never() }
        router.get("/slow") { request async throws -> HTTPServerResponse in
            try await Task.sleep(for: .milliseconds(20))
            return .text(request.peer ?? "?")
        }
        return router
    }

    /// Twenty requests at once over at most two connections: every one
    /// answered, by two peers at most; the gauges back at zero after.
    func testConcurrentRequests_AtMostMaxConnections() throws {
        let peers = try withClient(configuration { $0.maxConnectionsPerHost = 2 }, handler: Self.router.handler) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await client.execute(local(port, "/slow")).text() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
        }
        XCTAssertEqual(peers.count, 20)
        XCTAssertLessThanOrEqual(Set(peers).count, 2, "\(Set(peers))")
        XCTAssertEqual(try meter("connections_open"), 0)
        XCTAssertEqual(try meter("connections_idle"), 0)
        XCTAssertEqual(try meter("requests_queued"), 0)
        let queued = try metrics.expectMeter("rxuv_http_client_requests_queued", [("client", "pool-test")]).values
        XCTAssertGreaterThanOrEqual(queued.max() ?? 0, 10, "most requests waited for one of the two connections")
    }

    /// Beyond the connection and the queue's bound, a request fails at
    /// once with `.queueFull`; the others are answered.
    func testQueueBound_RefusesTheRequestBeyondIt() throws {
        let outcomes = try withClient(
            configuration {
                $0.maxConnectionsPerHost = 1
                $0.maxQueuedRequestsPerHost = 2
            }, handler: Self.router.handler
        ) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do {
                            _ = try await client.execute(local(port, "/slow")).text()
                            return "ok"
                        } catch let error as HTTPClientError {
                            return "\(error.code)"
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }.sorted()
            }
        }
        // One on the connection, two in the queue, the fourth refused.
        XCTAssertEqual(outcomes, ["ok", "ok", "ok", "queueFull"])
    }

    /// A connection idle past `idleTimeout` is closed by the client; the
    /// next request gets a new one.
    func testIdleTimeout_ClosesTheConnection() throws {
        let (first, second, openBetween) = try withClient(configuration { $0.idleTimeout = .milliseconds(50) }, handler: Self.router.handler) { [metrics] client, port in
            let first = try await client.execute(local(port, "/peer")).text()
            try await Task.sleep(for: .milliseconds(250))
            let open = try metrics.expectMeter("rxuv_http_client_connections_open", [("client", "pool-test")]).lastValue ?? 0
            return (first, try await client.execute(local(port, "/peer")).text(), open)
        }
        XCTAssertEqual(openBetween, 0)
        XCTAssertNotEqual(first, second)
    }

    /// A reused connection's one deadline moves from the idle time (10 s)
    /// to a shorter head timeout (150 ms): the second request's head
    /// timeout fires on time, not when the idle timer would have. (The
    /// other order, an idle time shorter than the head timeout standing
    /// from the request before, is `testIdleTimeout_ClosesTheConnection`.)
    func testHeadTimeoutShorterThanIdle_OnAReusedConnection_FiresOnTime() throws {
        let change: (inout HTTPClientConfiguration) -> Void = {
            $0.idleTimeout = .seconds(10)
            $0.headTimeout = .milliseconds(150)
        }
        let (first, failure, elapsed) = try withClient(configuration(change), handler: Self.router.handler) { client, port in
            let first = try await client.execute(local(port, "/peer")).text()
            let started = ContinuousClock.now
            var failure: HTTPClientError.Code?
            do {
                _ = try await client.execute(local(port, "/never"))
            } catch let error as HTTPClientError {
                failure = error.code
            }
            return (first, failure, ContinuousClock.now - started)
        }
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(failure, .headTimeout)
        XCTAssertLessThan(elapsed, .seconds(1))
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(140))
    }

    /// The server closes an idle kept-alive connection: the client sees
    /// its end while it is idle and takes it out of the pool, so the next
    /// request goes on a new connection without a failure or a retry.
    func testServerClosesIdleConnection_NextRequestOnANewOne() throws {
        let (first, second) = try withClient(configuration(), http: HTTPServerOptions(idleTimeout: .milliseconds(50)), handler: Self.router.handler) { client, port in
            let first = try await client.execute(local(port, "/peer")).text()
            try await Task.sleep(for: .milliseconds(250))
            return (first, try await client.execute(local(port, "/peer")).text())
        }
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try metrics.expectCounter("rxuv_http_client_requests_retried", [("client", "pool-test")]).totalValue, 0)
    }

    /// A server that closes a kept-alive connection as the next request
    /// arrives: an idempotent request is sent once more on a new
    /// connection and answered; a POST fails with `.connectionClosed`.
    func testStaleConnection_IdempotentRetriedOnce_PostFails() throws {
        let outcomes = try withRawServer(configuration(), serve: answering { [0: ok("first"), 2: ok("second")][$0] }) { client, port in
            var outcomes: [String] = []
            for method in [HTTPRequest.Method.get, .get, .post] {
                do {
                    outcomes.append(try await client.execute(local(port, "/", method)).text())
                } catch let error as HTTPClientError {
                    outcomes.append("\(error.code)")
                }
            }
            return outcomes
        }
        // The second GET met the closing connection, and was answered on a
        // new one; the POST met the second connection closing.
        XCTAssertEqual(outcomes, ["first", "second", "connectionClosed"])
        XCTAssertEqual(try metrics.expectCounter("rxuv_http_client_requests_retried", [("client", "pool-test")]).totalValue, 1)
    }

    /// Shutdown: the exchange under way ends, the queued request fails
    /// with `.shutdown`, a new one too; the shutdown completes once the
    /// last connection closed.
    func testShutdown_FinishesInFlight_FailsQueuedAndNew() throws {
        let outcomes = try withClient(configuration { $0.maxConnectionsPerHost = 1 }, handler: Self.router.handler) { client, port in
            let inFlight = Task { try await client.execute(local(port, "/slow")).text() }
            try await Task.sleep(for: .milliseconds(5))
            let queued = Task { try await client.execute(local(port, "/slow")).text() }
            try await Task.sleep(for: .milliseconds(5))
            try await client.shutdown().value
            let late = Task { try await client.execute(local(port, "/peer")).text() }
            var outcomes: [String] = []
            for attempt in [inFlight, queued, late] {
                do {
                    outcomes.append(try await attempt.value.hasPrefix("127.0.0.1") ? "answered" : "?")
                } catch let error as HTTPClientError {
                    outcomes.append("\(error.code)")
                }
            }
            return outcomes
        }
        XCTAssertEqual(outcomes, ["answered", "shutdown", "shutdown"])
    }
}
