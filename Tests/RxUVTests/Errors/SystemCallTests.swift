import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// The one choke point for raw system calls: a failure becomes a `UVError`
/// naming the call and the address (formatted only then), `EINTR` is
/// retried, and a tolerated `errno` (an `accept4` that finds nothing) is an
/// answer, not an error.
final class SystemCallTests: BridgeTestCase {
    func testSystemCall_OutcomesByErrno() {
        struct Row {
            let errno: Int32
            let tolerated: Int32
            /// `nil`: returns -1, no error, the address never formatted.
            let thrown: UVError.Code?
        }
        let table = [
            Row(errno: EAGAIN, tolerated: EAGAIN, thrown: nil),
            Row(errno: EAGAIN, tolerated: 0, thrown: .wouldBlock),
            Row(errno: EMFILE, tolerated: EAGAIN, thrown: .tooManyOpenFiles),
            Row(errno: ECONNABORTED, tolerated: 0, thrown: .connectionAborted),
        ]
        for row in table {
            var formatted = 0
            var calls = 0
            func address() -> String {
                formatted += 1
                return "127.0.0.1:1"
            }
            do {
                let result = try systemCall("accept", address: address(), tolerating: row.tolerated) {
                    calls += 1
                    errno = row.errno
                    return -1
                }
                XCTAssertNil(row.thrown, "errno \(row.errno): returned \(result), expected \(String(describing: row.thrown))")
                XCTAssertEqual(result, -1)
                XCTAssertEqual(formatted, 0, "errno \(row.errno): the address was formatted for a tolerated failure")
            } catch {
                XCTAssertEqual(error.code, row.thrown, "errno \(row.errno)")
                XCTAssertEqual(error.operation, "accept")
                XCTAssertEqual(error.address, "127.0.0.1:1")
                XCTAssertEqual(formatted, 1)
            }
            XCTAssertEqual(calls, 1, "errno \(row.errno)")
        }
    }

    func testSystemCall_RetriesInterruptedCalls_ReturnsTheResult() throws {
        var calls = 0
        let result = try systemCall("accept", tolerating: EAGAIN) { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        XCTAssertEqual(result, 7)
        XCTAssertEqual(calls, 3)
    }
}
