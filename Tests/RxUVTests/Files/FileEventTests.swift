import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `watch`, `watchFile` and `poll` on real files in a temporary directory.
/// What happens to the files is scheduled on the loop's own timers, so the
/// timeline is the test's.
final class FileEventTests: BridgeTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: String! { temporary.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-events")
    }

    override func tearDownWithError() throws {
        temporary.remove()
        try super.tearDownWithError()
    }

    private func put(_ text: String, _ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }

    /// An editor's save: write a temporary file, rename it over `path`.
    private func saveAtomically(_ text: String, _ path: String) {
        put(text, path + ".swp")
        rename(path + ".swp", path)
    }

    /// Runs `action` on the loop thread after `milliseconds`.
    private func at(_ milliseconds: Int, _ action: @escaping () -> Void) {
        _ = loop.rx.timer(after: .milliseconds(milliseconds)).subscribe(onNext: { _ in action() })
    }

    func testWatch_Directory_SeesCreateChangeAndRename() throws {
        var events: [FileEvent] = []
        let path = "\(directory!)/a"
        let subscription = loop.rx.watch(path: directory).subscribe(onNext: { events.append($0) })
        at(50) { self.put("one", path) }
        at(100) { rename(path, "\(self.directory!)/b") }
        at(300) { subscription.dispose() }
        runLoop()
        XCTAssertTrue(events.contains(FileEvent(name: "a", kind: .rename)), "\(events)")
        XCTAssertTrue(events.contains { $0.name == "a" && $0.kind.contains(.change) }, "\(events)")
        XCTAssertTrue(events.contains(FileEvent(name: "b", kind: .rename)), "\(events)")
    }

    func testWatch_Recursive_FailsClearly() {
        var failure: Error?
        _ = loop.rx.watch(path: directory, recursive: true).subscribe(onError: { failure = $0 })
        runLoop()
        XCTAssertEqual((failure as? UVError)?.code, .notSupported)
        XCTAssertTrue("\(String(describing: failure))".contains("recursive watching is not supported"))
    }

    func testWatch_MissingPath_FailsWithENOENT() {
        var failure: Error?
        _ = loop.rx.watch(path: "\(directory!)/missing").subscribe(onError: { failure = $0 })
        runLoop()
        XCTAssertEqual((failure as? UVError)?.code, .noSuchFileOrDirectory)
    }

    /// Five editor saves, each 100 ms (twice the settle time) after the
    /// status of the one before: five statuses, each of the new file (a
    /// watch on the original inode would have gone blind after the first).
    /// Each save waits for the last status, not for a clock, so a loaded
    /// machine cannot squeeze two saves into one settle window.
    func testWatchFile_FiveAtomicSaves_OneStatusEach() throws {
        let path = "\(directory!)/config"
        put("0", path)
        var statuses: [FileStatus] = []
        var subscription: Disposable?
        subscription = loop.rx.watchFile(path: path, settle: .milliseconds(50)).subscribe(onNext: { status in
            statuses.append(status)
            let saved = statuses.count
            if saved < 5 {
                self.at(100) { self.saveAtomically(String(repeating: "x", count: saved + 1), path) }
            } else {
                // Long enough for a sixth status, which must not come.
                self.at(300) { subscription?.dispose() }
            }
        })
        at(200) { self.saveAtomically("x", path) }
        runLoop()
        XCTAssertEqual(statuses.map(\.size), [1, 2, 3, 4, 5])
        XCTAssertTrue(statuses.allSatisfy { $0.kind == .regular })
    }

    /// The trap `watchFile` avoids: `watch` on the file itself follows its
    /// inode, and after the first atomic save it sees nothing more.
    func testWatch_OnTheFileItself_GoesBlindAfterAnAtomicSave() throws {
        let path = "\(directory!)/config"
        put("0", path)
        var phase = 0
        var eventsByPhase: [Int: Int] = [:]
        let subscription = loop.rx.watch(path: path).subscribe(onNext: { _ in eventsByPhase[phase, default: 0] += 1 })
        at(100) {
            phase = 1
            self.saveAtomically("1", path)
        }
        at(300) {
            phase = 2
            self.saveAtomically("22", path)
            self.put("333", path)
        }
        at(500) { subscription.dispose() }
        runLoop()
        XCTAssertGreaterThan(eventsByPhase[1, default: 0], 0)
        XCTAssertEqual(eventsByPhase[2, default: 0], 0)
    }

    /// Five saves in one burst: one status, of the last. The watch ends
    /// 400 ms (four settle times) after the first status, whenever that
    /// comes on a loaded machine, so a second one would be seen; at most
    /// after 10 s.
    func testWatchFile_BurstOfSaves_CoalescesIntoOne() throws {
        let path = "\(directory!)/config"
        put("0", path)
        var statuses: [FileStatus] = []
        let watching = SerialDisposable()
        let cap = SerialDisposable()
        watching.disposable = loop.rx.watchFile(path: path, settle: .milliseconds(100)).subscribe(onNext: { status in
            statuses.append(status)
            if statuses.count == 1 {
                self.at(400) {
                    watching.dispose()
                    cap.dispose()
                }
            }
        })
        cap.disposable = loop.rx.timer(after: .seconds(10)).subscribe(onNext: { _ in watching.dispose() })
        at(100) {
            for save in 1...5 { self.saveAtomically(String(repeating: "y", count: save), path) }
        }
        runLoop()
        XCTAssertEqual(statuses.map(\.size), [5])
    }

    /// `watchFile(path:settle:)` takes the settle time as an
    /// `RxTimeInterval` or a `Duration` (RxUV's time rule): each overload
    /// sees the delete, then the new file.
    func testWatchFile_DeleteThenRecreate_SeesMissingThenTheNewFile() throws {
        let rows: [(name: String, watch: (Loop, String) -> Observable<FileStatus>)] = [
            ("RxTimeInterval", { $0.rx.watchFile(path: $1, settle: .milliseconds(50)) }),
            ("Duration", { $0.rx.watchFile(path: $1, settle: Duration.milliseconds(50)) }),
        ]
        for (index, row) in rows.enumerated() {
            let path = "\(directory!)/config-\(index)"
            put("old", path)
            var statuses: [FileStatus] = []
            let subscription = row.watch(loop, path).subscribe(onNext: { statuses.append($0) })
            at(100) { unlink(path) }
            at(400) { self.put("recreated", path) }
            at(700) { subscription.dispose() }
            runLoop()
            XCTAssertEqual(statuses.map(\.kind), [.missing, .regular], row.name)
            XCTAssertEqual(statuses.last?.size, 9, row.name)
        }
    }

    /// `poll(path:interval:)` takes the interval as an `RxTimeInterval` or a
    /// `Duration` (RxUV's time rule): each overload sees the same three
    /// changes.
    func testPoll_SeesASizeChange_AMissingFile_AndItsReturn() throws {
        let rows: [(name: String, poll: (Loop, String) -> Observable<(previous: FileStatus, current: FileStatus)>)] = [
            ("RxTimeInterval", { $0.rx.poll(path: $1, interval: .milliseconds(20)) }),
            ("Duration", { $0.rx.poll(path: $1, interval: Duration.milliseconds(20)) }),
        ]
        for (index, row) in rows.enumerated() {
            let path = "\(directory!)/polled-\(index)"
            put("abc", path)
            var changes: [(previous: FileStatus, current: FileStatus)] = []
            let subscription = row.poll(loop, path).subscribe(onNext: { changes.append($0) })
            at(150) { self.put("abcdefghij", path) }
            at(400) { unlink(path) }
            at(650) { self.put("back", path) }
            at(900) { subscription.dispose() }
            runLoop()
            XCTAssertEqual(changes.count, 3, "\(row.name): \(changes)")
            guard changes.count == 3 else { continue }
            XCTAssertEqual(changes[0].previous.size, 3, row.name)
            XCTAssertEqual(changes[0].current.size, 10, row.name)
            XCTAssertEqual(changes[1].previous.size, 10, row.name)
            XCTAssertEqual(changes[1].current, .missing, row.name)
            XCTAssertEqual(changes[2].previous, .missing, row.name)
            XCTAssertEqual(changes[2].current.size, 4, row.name)
        }
    }
}
