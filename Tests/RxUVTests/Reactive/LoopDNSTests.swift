import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `loop.rx.resolve` and `loop.rx.reverseLookup`. Only names answered
/// locally are looked up (`localhost` from /etc/hosts, numeric addresses,
/// names the resolver rejects before asking a server): no query leaves the
/// machine.
final class LoopDNSTests: BridgeTestCase {
    func testResolve_LocalhostHasALoopbackAddress() {
        var addresses: [SocketAddress] = []
        _ = loop.rx.resolve(host: "localhost", port: 7000).subscribe(onSuccess: { addresses = $0 })
        runLoop()
        XCTAssertFalse(addresses.isEmpty)
        XCTAssertTrue(addresses.contains { $0.host == "127.0.0.1" || $0.host == "::1" }, "\(addresses)")
        XCTAssertTrue(addresses.allSatisfy { $0.port == 7000 })
        XCTAssertEqual(Set(addresses).count, addresses.count, "duplicates in \(addresses)")
    }

    func testResolve_FamilyFilters() {
        var ipv4: [SocketAddress] = []
        var numeric: [SocketAddress] = []
        _ = loop.rx.resolve(host: "localhost", family: .ipv4).subscribe(onSuccess: { ipv4 = $0 })
        _ = loop.rx.resolve(host: "::1", port: 1).subscribe(onSuccess: { numeric = $0 })
        runLoop()
        XCTAssertEqual(ipv4.map(\.host), ["127.0.0.1"])
        XCTAssertEqual(numeric.map(\.description), ["[::1]:1"])
    }

    func testResolve_ABadNameFailsNamingIt() {
        var failure: UVError?
        // A name with a space and a `!` is not a host name: the resolver
        // answers without asking a server.
        _ = loop.rx.resolve(host: "bad name!", port: 80).subscribe(onFailure: { failure = $0 as? UVError })
        runLoop()
        XCTAssertEqual(failure?.code, .unknownHost)
        XCTAssertEqual(failure?.name, "EAI_NONAME")
        XCTAssertEqual(failure?.operation, "uv_getaddrinfo")
        XCTAssertTrue(failure?.description.contains("bad name!:80") ?? false, "\(String(describing: failure))")
    }

    func testResolve_WrongFamilyForANumericAddressFails() {
        var failure: UVError?
        _ = loop.rx.resolve(host: "127.0.0.1", family: .ipv6).subscribe(onFailure: { failure = $0 as? UVError })
        runLoop()
        XCTAssertNotNil(failure)
        XCTAssertTrue(failure?.name.hasPrefix("EAI_") ?? false, "\(String(describing: failure))")
    }

    func testResolve_EarlyDisposeEmitsNothingAndLeaksNothing() {
        var events = 0
        for _ in 0..<20 {
            loop.rx.resolve(host: "localhost").subscribe { _ in events += 1 }.dispose()
        }
        runLoop()
        XCTAssertEqual(events, 0)
    }

    func testReverseLookup_LoopbackHasANameAndAService() {
        var answer: (host: String, service: String)?
        _ = loop.rx.reverseLookup(try! SocketAddress(ip: "127.0.0.1", port: 22)).subscribe(onSuccess: { answer = $0 })
        runLoop()
        XCTAssertEqual(answer?.host, "localhost")
        // /etc/services names port 22 `ssh`; without that file it is "22".
        XCTAssertTrue(["ssh", "22"].contains(answer?.service ?? ""), "\(String(describing: answer))")
    }

    func testReverseLookup_EarlyDisposeEmitsNothing() {
        var events = 0
        loop.rx.reverseLookup(try! SocketAddress(ip: "127.0.0.1", port: 80)).subscribe { _ in events += 1 }.dispose()
        runLoop()
        XCTAssertEqual(events, 0)
    }
}
