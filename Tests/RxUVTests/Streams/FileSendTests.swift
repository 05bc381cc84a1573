import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `ByteStream.write(_:range:)` of an open file, one contract over every
/// kind of stream: a TCP connection and a Unix-domain connection
/// (`sendfile(2)` while the socket takes it, chunks copied otherwise), and
/// a stream that is not a libuv handle (the face's default: every chunk
/// copied). Each row: the bytes arrive exactly, in order between the
/// writes made before and after; a range; a file shorter than its range
/// fails with `EOF`; `sendfile` refused (`EAGAIN`, `EINVAL`) falls back to
/// copying.
final class FileSendTests: BridgeTestCase {
    private enum Kind: CaseIterable {
        case tcp, unix, notAHandle
    }

    private var temporary: TemporaryDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-filesend")
    }

    override func tearDownWithError() throws {
        UVFaultInjection.removeAll()
        temporary.remove()
        try super.tearDownWithError()
    }

    private func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
    }

    /// A file of `bytes`, opened through the loop.
    private func openFile(_ bytes: [UInt8]) throws -> OpenFile {
        let path = "\(temporary.path)/file-\(bytes.count)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        var opened: Result<OpenFile, Error>?
        _ = loop.rx.openFile(path: path).subscribe(onSuccess: { opened = .success($0) }, onFailure: { opened = .failure($0) })
        runLoop()
        return try XCTUnwrap(opened).get()
    }

    /// A server of `kind` whose first connection gets what `send` writes,
    /// then closes; returns what a client read and how the send ended.
    private func exchange(_ kind: Kind, send: @escaping (any ByteStream) -> Completable) -> (bytes: [UInt8], outcome: Result<Void, Error>?) {
        let address = Shared("")
        let outcomeBox = Shared<Result<Void, Error>?>(nil)
        let served: (any ByteStream) -> Void = { connection in
            let stream: any ByteStream = kind == .notAHandle ? ForwardingStream(connection) : connection
            _ = send(stream).subscribe(
                onCompleted: {
                    outcomeBox.value = .success(())
                    connection.close(.afterWrites)
                },
                onError: { error in
                    outcomeBox.value = .failure(error)
                    connection.close(.afterWrites)
                })
        }
        let listener: Disposable
        let connect: () -> Observable<any ByteStream>
        let loop = self.loop!
        switch kind {
        case .tcp, .notAHandle:
            listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { address.value = "\($0.port)" }).take(1).subscribe(onNext: served)
            connect = { loop.rx.connect(host: "127.0.0.1", port: Int(address.value)!).asObservable().map { $0 as any ByteStream } }
        case .unix:
            let path = "\(temporary.path)/socket"
            listener = loop.rx.listen(unixPath: path).take(1).subscribe(onNext: served)
            connect = { loop.rx.connect(unixPath: path).asObservable().map { $0 as any ByteStream } }
        }
        var received: [ByteBuffer] = []
        _ = loop.rx.timer(after: .milliseconds(0)).flatMap { _ in connect() }
            .flatMap { $0.receivedData }
            .subscribe(onNext: { received.append($0) })
        runLoop(timeout: 30)
        listener.dispose()
        return (Array(ByteBuffer(concatenating: received)), outcomeBox.value)
    }

    func testWholeFileBetweenWrites_ArrivesExactlyAndInOrder() throws {
        let bytes = pattern(3 * 1024 * 1024 + 123)
        let file = try openFile(bytes)
        for kind in Kind.allCases {
            let (received, outcome) = exchange(kind) { stream in
                stream.write("head:").andThen(stream.write(file)).andThen(stream.write(":tail"))
            }
            XCTAssertNoThrow(try XCTUnwrap(outcome, "\(kind)").get(), "\(kind)")
            XCTAssertEqual(received.count, bytes.count + 10, "\(kind)")
            XCTAssertTrue(received == Array("head:".utf8) + bytes + Array(":tail".utf8), "\(kind): the bytes differ")
        }
    }

    /// The head written, not awaited, then the file: the order is the
    /// order of the calls, as for any two writes.
    func testHeadWrittenWithoutWaiting_ThenARange() throws {
        let bytes = pattern(200_000)
        let file = try openFile(bytes)
        for kind in Kind.allCases {
            let (received, outcome) = exchange(kind) { stream in
                _ = stream.write("206 ").subscribe()
                return stream.write(file, range: 70_001..<180_000)
            }
            XCTAssertNoThrow(try XCTUnwrap(outcome, "\(kind)").get(), "\(kind)")
            XCTAssertTrue(received == Array("206 ".utf8) + Array(bytes[70_001..<180_000]), "\(kind): the bytes differ")
        }
    }

    func testRangePastTheEnd_SendsWhatThereIsThenFailsWithEOF() throws {
        let bytes = pattern(10_000)
        let file = try openFile(bytes)
        for kind in Kind.allCases {
            let (received, outcome) = exchange(kind) { $0.write(file, range: 5_000..<20_000) }
            XCTAssertThrowsError(try XCTUnwrap(outcome, "\(kind)").get(), "\(kind)") { error in
                XCTAssertEqual((error as? UVError)?.code, .endOfFile, "\(kind): \(error)")
            }
            XCTAssertTrue(received == Array(bytes[5_000...]), "\(kind): the bytes before the end differ")
        }
    }

    /// `sendfile` refused every time: `EAGAIN` (the socket is full) and
    /// `EINVAL` (the stream cannot take a file); every byte goes out by
    /// copy, the same bytes.
    func testSendfileRefused_EveryChunkCopied() throws {
        let bytes = pattern(700_000)
        let file = try openFile(bytes)
        for status in [UVError.Code.wouldBlock, .invalidArgument] {
            for kind in [Kind.tcp, .unix] {
                UVFaultInjection.inject(status.rawValue, into: "sendfile", times: 1000)
                let (received, outcome) = exchange(kind) { $0.write(file) }
                let fired = UVFaultInjection.firedCount("sendfile")
                UVFaultInjection.removeAll()
                XCTAssertNoThrow(try XCTUnwrap(outcome, "\(kind)").get(), "\(kind), \(status)")
                XCTAssertTrue(received == bytes, "\(kind), \(status): the bytes differ")
                // EAGAIN is offered again after each copied chunk; EINVAL
                // turns the direct path off at the first refusal.
                if status == .wouldBlock {
                    XCTAssertGreaterThanOrEqual(fired, 700_000 / 65_536, "\(kind)")
                } else {
                    XCTAssertEqual(fired, 1, "\(kind)")
                }
            }
        }
    }

    func testSendfileFailing_FailsTheWrite() throws {
        let file = try openFile(pattern(1000))
        UVFaultInjection.inject(UVError.Code.brokenPipe.rawValue, into: "sendfile")
        let (_, outcome) = exchange(.tcp) { $0.write(file) }
        XCTAssertThrowsError(try XCTUnwrap(outcome).get()) { error in
            XCTAssertEqual((error as? UVError)?.code, .brokenPipe, "\(error)")
            XCTAssertEqual((error as? UVError)?.operation, "sendfile", "\(error)")
        }
    }

    func testNegativeRange_FailsWithEINVAL() throws {
        let file = try openFile(pattern(10))
        let (received, outcome) = exchange(.tcp) { $0.write(file, range: -1..<5) }
        XCTAssertThrowsError(try XCTUnwrap(outcome).get()) { error in
            XCTAssertEqual((error as? UVError)?.code, .invalidArgument, "\(error)")
        }
        XCTAssertEqual(received, [])
    }
}
