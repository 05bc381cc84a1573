import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `loop.rx.openFile(path:)` and `OpenFileCache` on real files: what opens
/// and what is refused, hits within the validity, one reopen after it
/// (the other asks meanwhile get the file kept), the capacity, and failed
/// opens not kept.
final class OpenFileTests: BridgeTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: String { temporary.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-openfile")
    }

    override func tearDownWithError() throws {
        temporary.remove()
        try super.tearDownWithError()
    }

    private func put(_ text: String, _ name: String) -> String {
        let path = "\(directory)/\(name)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        return path
    }

    private func result<Value>(_ single: Single<Value>) -> Result<Value, Error> {
        var result: Result<Value, Error>?
        _ = single.subscribe(onSuccess: { result = .success($0) }, onFailure: { result = .failure($0) })
        if result == nil { runLoop() }
        return result ?? .failure(UVError(code: .timedOut, operation: "test"))
    }

    private func code<Value>(_ result: Result<Value, Error>) -> UVError.Code? {
        if case .failure(let error) = result { return (error as? UVError)?.code }
        return nil
    }

    func testOpenFile_RegularFile_AndWhatIsRefused() throws {
        let path = put("twelve bytes", "file")
        let file = try result(loop.rx.openFile(path: path)).get()
        XCTAssertEqual(file.path, path)
        XCTAssertEqual(file.status.size, 12)
        XCTAssertEqual(file.status.kind, .regular)
        XCTAssertEqual(code(result(loop.rx.openFile(path: "\(directory)/missing"))), .noSuchFileOrDirectory)
        XCTAssertEqual(code(result(loop.rx.openFile(path: directory))), .isADirectory)
        XCTAssertEqual(mkfifo("\(directory)/fifo", 0o644), 0)
        XCTAssertEqual(code(result(loop.rx.openFile(path: "\(directory)/fifo"))), .invalidArgument, "a FIFO is not a regular file")
    }

    func testCache_HitWithinValidity_AtOnceAndTheSameFile() throws {
        let cache = OpenFileCache(validity: .seconds(60))
        let path = put("a", "a")
        let first = try result(cache.file(at: path, on: loop)).get()
        var second: OpenFile?
        _ = cache.file(at: path, on: loop).subscribe(onSuccess: { second = $0 })
        XCTAssertTrue(second === first, "a hit is the same file, during subscribe")
        XCTAssertTrue(cache.cachedFile(at: path) === first)
        XCTAssertNil(cache.cachedFile(at: "\(directory)/other"))
        XCTAssertEqual(cache.statistics.hits, 2)
        XCTAssertEqual(cache.statistics.misses, 1)
        XCTAssertEqual(cache.count, 1)
    }

    /// Past the validity the next ask opens the file again; the asks made
    /// while it opens get the file kept (one open, not one per ask); after
    /// it, the new file. A file replaced by a rename shows then.
    func testCache_PastValidity_OneReopen_OthersGetTheFileKept() throws {
        let cache = OpenFileCache(validity: .milliseconds(20))
        let path = put("old", "f")
        let old = try result(cache.file(at: path, on: loop)).get()
        _ = put("newer", "f.tmp")
        XCTAssertEqual(rename("\(directory)/f.tmp", path), 0)
        usleep(30_000)
        XCTAssertNil(cache.cachedFile(at: path), "past its validity")
        var reopened: OpenFile?
        _ = cache.file(at: path, on: loop).subscribe(onSuccess: { reopened = $0 })
        var meanwhile: OpenFile?
        _ = cache.file(at: path, on: loop).subscribe(onSuccess: { meanwhile = $0 })
        XCTAssertTrue(meanwhile === old, "an ask while the file opens again gets the one kept")
        runLoop()
        XCTAssertEqual(reopened?.status.size, 5)
        XCTAssertTrue(cache.cachedFile(at: path) === reopened)
        XCTAssertEqual(cache.statistics.misses, 2)
    }

    func testCache_Capacity_DropsTheLeastRecentlyAsked() throws {
        let cache = OpenFileCache(capacity: 2, validity: .seconds(60))
        let (a, b, c) = (put("a", "a"), put("b", "b"), put("c", "c"))
        _ = try result(cache.file(at: a, on: loop)).get()
        _ = try result(cache.file(at: b, on: loop)).get()
        _ = cache.cachedFile(at: a) // a is now more recent than b
        _ = try result(cache.file(at: c, on: loop)).get()
        XCTAssertEqual(cache.count, 2)
        XCTAssertNotNil(cache.cachedFile(at: a))
        XCTAssertNil(cache.cachedFile(at: b), "the least recently asked went")
        XCTAssertNotNil(cache.cachedFile(at: c))
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
    }

    /// A failed open is not kept, and drops the file kept for the path: a
    /// removed file is not served past its validity.
    func testCache_FailedOpen_NotKept_AndDropsTheOldFile() throws {
        let cache = OpenFileCache(validity: .milliseconds(10))
        XCTAssertEqual(code(result(cache.file(at: "\(directory)/missing", on: loop))), .noSuchFileOrDirectory)
        XCTAssertEqual(cache.count, 0)
        let path = put("x", "gone")
        _ = try result(cache.file(at: path, on: loop)).get()
        XCTAssertEqual(unlink(path), 0)
        usleep(20_000)
        XCTAssertEqual(code(result(cache.file(at: path, on: loop))), .noSuchFileOrDirectory)
        XCTAssertEqual(cache.count, 0)
    }

    /// A reopen disposed before it ends lets the next ask open again (it
    /// does not leave the stale file handed out for good).
    func testCache_ReopenDisposed_NextAskOpensAgain() throws {
        let cache = OpenFileCache(validity: .milliseconds(10))
        let path = put("v1", "file")
        let first = try result(cache.file(at: path, on: loop)).get()
        usleep(20_000)
        cache.file(at: path, on: loop).subscribe(onSuccess: { _ in }).dispose()
        let next = try result(cache.file(at: path, on: loop)).get()
        XCTAssertFalse(next === first, "the next ask opened the file again")
    }
}
