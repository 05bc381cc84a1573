import RxCore
import RxCoreTestSupport
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class HooksTests: RxCoreTestCase {
    private var previousHandler: Hooks.DefaultErrorHandler!
    private var previousCapture: Hooks.CustomCaptureSubscriptionCallstack!

    /// Every test may replace the hooks: they are put back after it.
    override func setUp() {
        super.setUp()
        previousHandler = Hooks.defaultErrorHandler
        previousCapture = Hooks.customCaptureSubscriptionCallstack
    }

    override func tearDown() {
        Hooks.defaultErrorHandler = previousHandler
        Hooks.customCaptureSubscriptionCallstack = previousCapture
        Hooks.recordCallStackOnError = false
        super.tearDown()
    }

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
        let seen = Mutex<[[String]]>([])
        Hooks.defaultErrorHandler = { callStack, _ in seen.withLock { $0.append(callStack) } }
        let lines = captureOutput(of: STDERR_FILENO) {
            _ = Observable<Int>.error(HooksTestError.unhandled).subscribe()
        }
        Hooks.defaultErrorHandler = previous
        XCTAssertEqual(seen.withLock { $0 }, [[]])
        XCTAssertEqual(lines, [])
    }

    /// RxSwift's hooks: with `recordCallStackOnError`, the stack captured at
    /// `subscribe` reaches the handler with the error; without, it is empty.
    func testRecordCallStackOnError_PassesTheCapturedStackToTheHandler() {
        let stacks = Mutex<[[String]]>([])
        Hooks.defaultErrorHandler = { callStack, error in
            stacks.withLock { $0.append(callStack + ["\(error)"]) }
        }
        Hooks.customCaptureSubscriptionCallstack = { ["frame 0", "frame 1"] }

        let subject = PublishSubject<Int>()
        _ = subject.subscribe()
        Hooks.recordCallStackOnError = true
        _ = subject.subscribe(onNext: { _ in })
        _ = subject.subscribe(onError: { _ in })
        subject.onError(HooksTestError.unhandled)

        XCTAssertEqual(stacks.withLock { $0 }, [["unhandled"], ["frame 0", "frame 1", "unhandled"]])
    }

    func testRecordCallStackOnError_Traits() {
        let stacks = Mutex<[[String]]>([])
        Hooks.defaultErrorHandler = { callStack, _ in stacks.withLock { $0.append(callStack) } }
        Hooks.customCaptureSubscriptionCallstack = { ["subscribed here"] }
        Hooks.recordCallStackOnError = true

        _ = Single<Int>.error(HooksTestError.unhandled).subscribe()
        _ = Maybe<Int>.error(HooksTestError.unhandled).subscribe()
        _ = Completable.error(HooksTestError.unhandled).subscribe()
        _ = Single<Int>.error(HooksTestError.unhandled).subscribe(onFailure: { _ in })

        XCTAssertEqual(stacks.withLock { $0 }, Array(repeating: ["subscribed here"], count: 3))
    }

    /// The default handler prints the recorded stack under the error.
    func testDefaultErrorHandler_WritesTheRecordedCallStack() {
        Hooks.customCaptureSubscriptionCallstack = { ["frame 0", "frame 1"] }
        Hooks.recordCallStackOnError = true
        let lines = captureOutput(of: STDERR_FILENO) {
            _ = Observable<Int>.error(HooksTestError.unhandled).subscribe()
        }
        XCTAssertEqual(lines, ["Unhandled error: unhandled", " subscription called from:", "frame 0", "frame 1"])
    }

    func testRecordCallStackOnError_IsOffByDefaultAndTheDefaultCaptureIsEmpty() {
        XCTAssertFalse(Hooks.recordCallStackOnError)
        XCTAssertEqual(Hooks.customCaptureSubscriptionCallstack(), [])
    }
}

private enum HooksTestError: Error, CustomStringConvertible {
    case unhandled

    var description: String { "unhandled" }
}
