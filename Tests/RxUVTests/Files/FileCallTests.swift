import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `readFile`, `writeFile`, `stat`, `fileChunks` and `write(fileAt:)` on
/// real files in a temporary directory.
final class FileCallTests: BridgeTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: String! { temporary.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-files")
    }

    override func tearDownWithError() throws {
        temporary.remove()
        try super.tearDownWithError()
    }

    /// Writes `bytes` to `path` with plain POSIX calls.
    private func put(_ bytes: [UInt8], _ path: String, mode: mode_t = 0o644) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fchmod(descriptor, mode)
        close(descriptor)
    }

    /// The result of `single`, run on the test's loop.
    private func value<Value>(_ single: Single<Value>) throws -> Value {
        var result: Result<Value, Error>?
        _ = single.subscribe(onSuccess: { result = .success($0) }, onFailure: { result = .failure($0) })
        runLoop()
        return try XCTUnwrap(result).get()
    }

    private func value(_ completable: Completable) throws {
        _ = try value(completable.andThen(Single.just(())))
    }

    /// Open descriptors of this process.
    private func openDescriptorCount() -> Int {
        DirectoryListing.entries(of: "/proc/self/fd").count
    }

    private func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    // MARK: readFile

    func testReadFile_WholeFile_EmptyFile_AndProcFileOfSizeZero() throws {
        let bytes = pattern(300_000)
        put(bytes, "\(directory!)/data")
        put([], "\(directory!)/empty")
        XCTAssertEqual(Array(try value(loop.rx.readFile(path: "\(directory!)/data"))), bytes)
        XCTAssertEqual(try value(loop.rx.readFile(path: "\(directory!)/empty")).count, 0)
        // /proc files report size 0 and hold more than one page.
        let maps = try value(loop.rx.readFile(path: "/proc/self/maps"))
        XCTAssertGreaterThan(maps.count, 4096)
    }

    func testReadFile_MaxSize_Enforced() throws {
        put(pattern(1000), "\(directory!)/data")
        XCTAssertEqual(try value(loop.rx.readFile(path: "\(directory!)/data", maxSize: 1000)).count, 1000)
        XCTAssertThrowsError(try value(loop.rx.readFile(path: "\(directory!)/data", maxSize: 999))) { error in
            XCTAssertEqual((error as? UVError)?.code, .fileTooLarge)
            XCTAssertTrue("\(error)".contains("maxSize (999 bytes)"), "\(error)")
        }
        // A file whose size says 0 but holds more: caught while reading.
        XCTAssertThrowsError(try value(loop.rx.readFile(path: "/proc/self/maps", maxSize: 100))) { error in
            XCTAssertEqual((error as? UVError)?.code, .fileTooLarge)
        }
    }

    func testReadFile_Failures_NameTheCallAndPath() {
        let table: [(path: String, code: UVError.Code)] = [
            ("\(directory!)/missing", .noSuchFileOrDirectory),
            (directory!, .isADirectory),
        ]
        for row in table {
            XCTAssertThrowsError(try value(loop.rx.readFile(path: row.path)), row.path) { error in
                XCTAssertEqual((error as? UVError)?.code, row.code, "\(error)")
                XCTAssertTrue("\(error)".contains(row.path), "\(error)")
            }
            assertNoLeaks(row.path)
        }
    }

    // MARK: writeFile and stat

    func testWriteFile_AtomicReplacesAndKeepsMode_PlainCreates() throws {
        let path = "\(directory!)/config"
        put(Array("old".utf8), path, mode: 0o600)
        try value(loop.rx.writeFile(path: path, bytes: ByteBuffer(string: "new contents")))
        XCTAssertEqual(try value(loop.rx.readFile(path: path)).string, "new contents")
        let status = try value(loop.rx.stat(path: path))
        XCTAssertEqual(status.kind, .regular)
        XCTAssertEqual(status.size, 12)
        XCTAssertEqual(status.permissions, 0o600)
        // No temporary file left behind.
        XCTAssertEqual(temporary.entries, ["config"])

        try value(loop.rx.writeFile(path: "\(directory!)/fresh", bytes: ByteBuffer(pattern(70_000)), atomic: false))
        XCTAssertEqual(Array(try value(loop.rx.readFile(path: "\(directory!)/fresh"))), pattern(70_000))
        XCTAssertEqual(try value(loop.rx.stat(path: "\(directory!)/fresh")).size, 70_000)
    }

    func testWriteFile_IntoMissingDirectory_FailsAndLeavesNothing() throws {
        XCTAssertThrowsError(try value(loop.rx.writeFile(path: "\(directory!)/no/such/file", bytes: ByteBuffer(string: "x")))) { error in
            XCTAssertEqual((error as? UVError)?.code, .noSuchFileOrDirectory, "\(error)")
        }
    }

    /// A real ENOSPC with no mount: /dev/full fails every write with it.
    /// (The full tmpfs of Tests/Examples/test_full_disk.py covers the
    /// atomic write; /dev/full's directory is no place for its temporary file.)
    func testWriteFile_InPlaceToDevFull_FailsWithENOSPC() {
        XCTAssertThrowsError(try value(loop.rx.writeFile(path: "/dev/full", bytes: ByteBuffer(string: "x"), atomic: false))) { error in
            XCTAssertEqual((error as? UVError)?.code, .noSpaceLeft, "\(error)")
            XCTAssertEqual((error as? UVError)?.operation, "uv_fs_write", "\(error)")
        }
    }

    func testStat_KindsAndMissing() throws {
        XCTAssertEqual(try value(loop.rx.stat(path: directory)).kind, .directory)
        XCTAssertEqual(try value(loop.rx.stat(path: "\(directory!)/missing")), .missing)
        XCTAssertFalse(FileStatus.missing.exists)
        XCTAssertEqual(try value(loop.rx.stat(path: "/dev/null")).kind, .characterDevice)
    }

    // MARK: fileChunks

    func testFileChunks_InOrder_OneChunkReadAfterTheLastWasTaken() throws {
        let bytes = pattern(1_000_003)
        put(bytes, "\(directory!)/big")
        var chunks: [ByteBuffer] = []
        var completed = false
        _ = loop.rx.fileChunks(path: "\(directory!)/big", chunkSize: 65536).subscribe(
            onNext: { chunks.append($0) }, onCompleted: { completed = true })
        runLoop()
        XCTAssertTrue(completed)
        XCTAssertEqual(chunks.count, 16)
        XCTAssertTrue(chunks.dropLast().allSatisfy { $0.count == 65536 })
        XCTAssertEqual(Array(ByteBuffer(concatenating: chunks)), bytes)
    }

    /// A range: its bytes only, read at their offsets in chunks that stop
    /// at its end; an empty range completes at once; a range past the
    /// file's end fails with `EOF` after the bytes there are.
    func testFileChunks_Range_ReadsItsBytesOnly() throws {
        let bytes = pattern(100_000)
        put(bytes, "\(directory!)/ranged")
        var chunks: [ByteBuffer] = []
        var empty: [ByteBuffer] = []
        var pastEnd: [ByteBuffer] = []
        var events: [String] = []
        _ = loop.rx.fileChunks(path: "\(directory!)/ranged", range: 10_000..<60_001, chunkSize: 16384).subscribe(
            onNext: { chunks.append($0) }, onCompleted: { events.append("range completed") })
        _ = loop.rx.fileChunks(path: "\(directory!)/ranged", range: 500..<500).subscribe(
            onNext: { empty.append($0) }, onCompleted: { events.append("empty completed") })
        _ = loop.rx.fileChunks(path: "\(directory!)/ranged", range: 99_000..<101_000).subscribe(
            onNext: { pastEnd.append($0) }, onError: { events.append("past end \(($0 as? UVError)?.name ?? "?")") })
        runLoop()
        XCTAssertEqual(Set(events), ["range completed", "empty completed", "past end EOF"])
        XCTAssertEqual(chunks.map(\.count), [16384, 16384, 16384, 849])
        XCTAssertEqual(Array(ByteBuffer(concatenating: chunks)), Array(bytes[10_000..<60_001]))
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(Array(ByteBuffer(concatenating: pastEnd)), Array(bytes[99_000...]))
    }

    func testFileChunks_DisposedMidFile_ClosesTheDescriptor() throws {
        put(pattern(2_000_000), "\(directory!)/big")
        let before = openDescriptorCount()
        var received = 0
        var subscription: Disposable?
        subscription = loop.rx.fileChunks(path: "\(directory!)/big", chunkSize: 4096).subscribe(onNext: { _ in
            received += 1
            if received == 3 { subscription?.dispose() }
        })
        runLoop()
        XCTAssertEqual(received, 3)
        XCTAssertEqual(openDescriptorCount(), before)
    }

    func testFileChunks_MissingFile_FailsWithENOENT() {
        var failure: Error?
        _ = loop.rx.fileChunks(path: "\(directory!)/missing").subscribe(onError: { failure = $0 })
        runLoop()
        XCTAssertEqual((failure as? UVError)?.code, .noSuchFileOrDirectory)
        XCTAssertTrue("\(String(describing: failure))".contains("missing"))
    }

    /// 4 MiB written to a peer: the file arrives whole, and the sender's
    /// write queue never holds more than one chunk (the next chunk is read
    /// only when the last is written).
    func testWriteFileAt_ArrivesWhole_QueueHoldsAtMostOneChunk() throws {
        let bytes = pattern(4 * 1024 * 1024)
        put(bytes, "\(directory!)/big")
        var received: [ByteBuffer] = []
        var largestQueue = 0
        var completed = false
        let port = Shared(0)
        let loop = self.loop!
        let listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).take(1).subscribe(onNext: { connection in
            let watch = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { _ in
                largestQueue = max(largestQueue, connection.writeQueueSize)
            })
            _ = connection.write(fileAt: "\(self.directory!)/big", chunkSize: 65536).subscribe(onCompleted: {
                completed = true
                largestQueue = max(largestQueue, connection.writeQueueSize)
                watch.dispose()
                connection.close()
            })
        })
        _ = loop.rx.timer(after: .milliseconds(0)).flatMap { _ in loop.rx.connect(host: "127.0.0.1", port: port.value).asObservable() }
            .flatMap { $0.rx.data }
            .subscribe(onNext: { received.append($0) })
        runLoop(timeout: 30)
        listener.dispose()
        XCTAssertTrue(completed)
        XCTAssertEqual(Array(ByteBuffer(concatenating: received)), bytes)
        XCTAssertLessThanOrEqual(largestQueue, 65536)
    }
}
