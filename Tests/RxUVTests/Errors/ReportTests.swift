import Dispatch
import Logging
import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `report`, the one way an error that cannot reach a subscriber leaves
/// the bridge: to a server's logger, a loop's, or the process-wide one,
/// with its context as metadata; with no backend, to standard error.
final class ReportTests: BridgeTestCase {
    /// A report on a loop goes to the loop's logger at level `error`, with
    /// the context as metadata and the context's address in the error.
    func testReport_GoesToTheLoopsLogger_WithTheContextAsMetadata() {
        let reported = CapturedReports(on: loop)
        report(UVError(code: .connectionReset, operation: "uv_read"), ReportContext(loop: loop, server: "127.0.0.1:7000", peer: "127.0.0.1:53122", handle: "tcp"))
        XCTAssertEqual(reported.entries.count, 1)
        let entry = reported.entries[0]
        XCTAssertEqual(entry.level, .error)
        XCTAssertEqual(
            entry.metadata,
            ["server": "127.0.0.1:7000", "peer": "127.0.0.1:53122", "handle": "tcp", "error": "ECONNRESET", "operation": "uv_read"])
        XCTAssertEqual((entry.error as? UVError)?.address, "127.0.0.1:53122")
        XCTAssertEqual("\(entry.message)", "\(entry.error!)")
    }

    /// A server's reports go to `ServerOptions.logger`, not the loop's: a
    /// handler that fails is logged with the server's address and the peer.
    func testServerLogger_TakesTheServersReports() throws {
        let loopReports = CapturedReports(on: loop)
        let serverReports = CapturedReports()
        var options = ServerOptions()
        options.logger = serverReports.logger
        var port = 0
        var server: Server?
        _ = loop.rx.serve(host: "127.0.0.1", port: 0, options: options) { served in
            served.connection.rx.data.take(1).flatMap { _ -> Observable<Never> in
                .error(UVError(code: .invalidArgument, operation: "handler"))
            }.asCompletable()
        }.subscribe(onSuccess: { started in
            server = started
            port = started.address.port
            _ = self.loop.rx.connect(host: "127.0.0.1", port: port).subscribe(onSuccess: { client in
                _ = client.write("hello").subscribe()
                _ = client.rx.data.subscribe(
                    onError: { _ in },
                    onCompleted: {
                        _ = server?.drain(deadline: .seconds(1)).subscribe()
                    })
            })
        })
        runLoop()
        XCTAssertEqual(loopReports.entries.count, 0, "\(loopReports.entries)")
        XCTAssertEqual(serverReports.names, ["EINVAL"])
        let metadata = try XCTUnwrap(serverReports.entries.first?.metadata)
        XCTAssertEqual(metadata["server"], "127.0.0.1:\(port)")
        XCTAssertNotNil(metadata["peer"])
    }

    /// A group's loops carry their index as the metadata `loop`, on the
    /// logger handed in.
    func testLoopGroup_TagsEachLoopsEntriesWithItsIndex() throws {
        let reported = CapturedReports()
        let group = try LoopGroup(threads: 2, logger: reported.logger)
        defer { XCTAssertNoThrow(try group.shutdown()) }
        for loop in group.loops {
            report(UVError(code: .timedOut, operation: "test"), ReportContext(loop: loop))
        }
        XCTAssertEqual(reported.entries.map { $0.metadata["loop"] }, ["0", "1"])
    }

    /// With no logger handed in and no backend bootstrapped, a report
    /// reaches standard error (swift-log's default handler).
    func testNoBackend_ReportReachesStandardError() throws {
        let other = try Loop()
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        dup2(pipeEnds[1], STDERR_FILENO)
        report(UVError(code: .addressInUse, operation: "uv_listen"), ReportContext(loop: other, server: "127.0.0.1:1"))
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(pipeEnds[1])
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(pipeEnds[0], &bytes, bytes.count)
        close(pipeEnds[0])
        let written = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        XCTAssertTrue(written.contains("EADDRINUSE"), written)
        XCTAssertTrue(written.contains("error"), written)
        XCTAssertTrue(written.contains("rxuv"), written)
        try other.close()
    }
}
