import RxCore
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class HooksTests: RxCoreTestCase {
    /// Nothing fails silently: an error nobody handles reaches standard
    /// error, in every build, through the default handler.
    func testDefaultErrorHandler_WritesUnhandledErrorsToStandardError() {
        let lines = captureOutput(of: STDERR_FILENO) {
            _ = Observable<Int>.error(HooksTestError.unhandled).subscribe()
        }
        XCTAssertEqual(lines, ["Unhandled error: unhandled"])
    }

    func testDefaultErrorHandler_CanBeReplacedAndRestored() {
        let previous = Hooks.defaultErrorHandler
        let seen = ManagedCounter()
        Hooks.defaultErrorHandler = { _ in seen.increment() }
        let lines = captureOutput(of: STDERR_FILENO) {
            _ = Observable<Int>.error(HooksTestError.unhandled).subscribe()
        }
        Hooks.defaultErrorHandler = previous
        XCTAssertEqual(seen.current, 1)
        XCTAssertEqual(lines, [])
    }
}

private enum HooksTestError: Error, CustomStringConvertible {
    case unhandled

    var description: String { "unhandled" }
}
