import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `SocketAddress` keeps the kernel's bytes and writes its host on demand:
/// what it says, how it compares, and that it round-trips through a
/// `sockaddr`. (An accepted connection's addresses: `TCPEchoTests`.)
final class SocketAddressTests: BridgeTestCase {
    func testSocketAddress_ParsesAndDescribes_IPv4AndIPv6() throws {
        let table: [(ip: String, port: Int, host: String, description: String, isIPv6: Bool)] = [
            ("127.0.0.1", 7000, "127.0.0.1", "127.0.0.1:7000", false),
            ("0.0.0.0", 0, "0.0.0.0", "0.0.0.0:0", false),
            ("255.255.255.255", 65_535, "255.255.255.255", "255.255.255.255:65535", false),
            ("::1", 7000, "::1", "[::1]:7000", true),
            ("::", 1, "::", "[::]:1", true),
            ("2001:db8::ff00:42:8329", 443, "2001:db8::ff00:42:8329", "[2001:db8::ff00:42:8329]:443", true),
            ("::ffff:10.0.0.1", 80, "::ffff:10.0.0.1", "[::ffff:10.0.0.1]:80", true),
        ]
        for row in table {
            let address = try SocketAddress(ip: row.ip, port: row.port)
            XCTAssertEqual(address.host, row.host, row.ip)
            XCTAssertEqual(address.port, row.port, row.ip)
            XCTAssertEqual(address.isIPv6, row.isIPv6, row.ip)
            XCTAssertEqual(address.description, row.description, row.ip)
        }
    }

    func testSocketAddress_RefusesWhatIsNotANumericAddressOrPort() {
        for (ip, port) in [("localhost", 80), ("1.2.3", 80), ("::g", 80), ("", 80), ("127.0.0.1", -1), ("127.0.0.1", 65_536)] {
            XCTAssertThrowsError(try SocketAddress(ip: ip, port: port), "\(ip) \(port)") { error in
                XCTAssertEqual((error as? UVError)?.code, .invalidArgument, "\(ip) \(port)")
            }
        }
    }

    func testSocketAddress_EqualAndHashedByAddressAndPort() throws {
        let a = try SocketAddress(ip: "127.0.0.1", port: 80)
        XCTAssertEqual(a, try SocketAddress(ip: "127.0.0.1", port: 80))
        XCTAssertNotEqual(a, try SocketAddress(ip: "127.0.0.1", port: 81))
        XCTAssertNotEqual(a, try SocketAddress(ip: "127.0.0.2", port: 80))
        XCTAssertNotEqual(a, try SocketAddress(ip: "::ffff:127.0.0.1", port: 80))
        XCTAssertEqual(try SocketAddress(ip: "::1", port: 80), try SocketAddress(ip: "0:0:0:0:0:0:0:1", port: 80))
        let set: Set = [a, try SocketAddress(ip: "127.0.0.1", port: 80), try SocketAddress(ip: "::1", port: 80)]
        XCTAssertEqual(set.count, 2)
    }

    func testSocketAddress_RoundTripsThroughASockaddr() throws {
        for (ip, port) in [("192.0.2.7", 5), ("2001:db8::1", 65_000)] {
            let address = try SocketAddress(ip: ip, port: port)
            let copy = address.withSockAddr { pointer -> Int32 in
                XCTAssertEqual(SocketAddress(pointer), address, ip)
                return 0
            }
            XCTAssertEqual(copy, 0)
        }
        var unix = sockaddr_storage()
        unix.ss_family = sa_family_t(AF_UNIX)
        XCTAssertNil(SocketAddress(storage: unix))
    }
}
