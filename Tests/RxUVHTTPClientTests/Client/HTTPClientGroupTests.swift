import HTTPTypes
import RxBlocking
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import Synchronization
import XCTest

/// A client on a `LoopGroup`: a pool per loop; requests from outside the
/// loops go to them in turn, and each response arrives on the thread of
/// the loop its request went to.
final class HTTPClientGroupTests: BridgeTestCase {
    func testGroupClient_SpreadsOverTheLoops() throws {
        let group = try LoopGroup(threads: 2)
        let server = try group.rx.serveHTTP(host: "127.0.0.1", port: 0) { request in .just(.text(request.peer ?? "?")) }.toBlocking().single()
        let client = HTTPClient(group: group)
        let loops = group.loops
        let onLoopThread = Atomic<Int>(0)
        let peers = Mutex<Set<String>>([])
        let port = server.address.port
        let answers = try Observable.merge(
            (0..<8).map { _ in
                client.rx.send(local(port, "/")).flatMap { response in
                    if loops.contains(where: \.isOnLoopThread) { onLoopThread.add(1, ordering: .relaxed) }
                    return response.body.collect(upTo: 100)
                }.asObservable()
            }
        ).toBlocking(timeout: 10).toArray()
        for answer in answers { peers.withLock { _ = $0.insert(answer.string) } }
        try client.shutdown().toBlocking(timeout: 5).first()
        try server.drain(deadline: .seconds(2)).toBlocking(timeout: 5).first()
        XCTAssertNoThrow(try group.shutdown())
        XCTAssertEqual(answers.count, 8)
        XCTAssertEqual(onLoopThread.load(ordering: .relaxed), 8)
        XCTAssertGreaterThanOrEqual(peers.withLock { $0.count }, 2, "both loops made connections")
    }
}
