import RxCore
import RxUV
import RxUVTestSupport
import XCTest

extension BridgeTestCase {
    /// Runs `count` clients on the test's loop, at most `maxConcurrent` at
    /// once, each connecting with `connect`, sending a line and reading its
    /// echo; returns how many echoes came back byte-exact.
    func echoClients<Connection: StreamConnection>(
        _ count: Int, maxConcurrent: Int, timeout: Double = 60, connect: @escaping (Loop) -> Single<Connection>
    ) -> Int {
        var exact = 0
        let loop = self.loop!
        _ = Observable.range(start: 0, count: count)
            .map { index -> Observable<Bool> in
                connect(loop).asObservable().flatMap { client -> Observable<Bool> in
                    let line = ByteBuffer(string: "client \(index) says hello\n")
                    return client.write(line).andThen(client.rx.data)
                        .scan(into: ByteBuffer()) { $0 = $0 + $1 }
                        .filter { $0.count >= line.count }
                        .take(1)
                        .map { $0 == line }
                        .do(onDispose: { client.close() })
                }
            }
            .merge(maxConcurrent: maxConcurrent)
            .subscribe(onNext: { if $0 { exact += 1 } }, onError: { XCTFail("client: \($0)") })
        runLoop(timeout: timeout)
        return exact
    }
}
