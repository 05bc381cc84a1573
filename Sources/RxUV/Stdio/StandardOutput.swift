@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// A writer for the process's standard output or standard error, whatever
/// the descriptor is (a terminal, a pipe, a socket or a regular file; see
/// `loop.rx.stdin` for how each is opened), made by
/// `loop.standardOutput()` or `loop.standardError()`. Make one per
/// descriptor and program: two writers would interleave.
///
/// `write` is a `Completable` that completes when libuv has written the
/// bytes; writes go out in order. `flush()` completes once every byte
/// written before it is out, so a tool that flushes before it lets its loop
/// end loses nothing, however slow the reader of its pipe. (The loop also
/// keeps running while writes are queued.) Every method is safe from any
/// thread; libuv calls run on the loop thread.
public final class StandardOutput: Sendable {
    /// The loop the writes run on.
    public let loop: Loop
    /// The descriptor written to: 1 or 2.
    public let descriptor: Int32

    /// What the descriptor was opened as, on first use. Loop thread.
    private enum Target {
        case unopened
        case stream(StreamConnection)
        case file(FileWriter)
    }

    private let target: LoopBound<Target>

    init(loop: Loop, descriptor: Int32) {
        self.loop = loop
        self.descriptor = descriptor
        self.target = LoopBound(.unopened, loop: loop)
    }

    /// Writes `bytes` when subscribed; completes when they are written
    /// (`uv_write`, or `uv_fs_write` for a file), fails with the write's
    /// `UVError` (`EPIPE` when the reader has gone). Events arrive on the
    /// loop thread; disposing only stops the notification.
    public func write(_ bytes: ByteBuffer) -> Completable {
        operation { (output, finish) throws(UVError) in
            try output.opened().write(bytes, finish)
        }
    }

    /// Writes the UTF-8 bytes of `string`; see `write(_:)`.
    public func write(_ string: String) -> Completable {
        write(ByteBuffer(string: string))
    }

    /// Completes once every write made before it is out. Events arrive on
    /// the loop thread.
    public func flush() -> Completable {
        operation { (output, finish) throws(UVError) in
            try output.opened().flush(finish)
        }
    }

    /// Closes what RxUV opened for the descriptor, after the queued writes
    /// (never the descriptor itself). Safe from any thread.
    public func close() {
        let target = self.target
        loop.enter {
            switch target.value {
            case .unopened: break
            case .stream(let stream): stream.close(.afterWrites)
            case .file(let writer): writer.close()
            }
        }
    }

    private func operation(_ body: @escaping LoopOperation<StandardOutput>.Body) -> Completable {
        Completable(raw: LoopOperation(loop: loop, target: self, operation: "uv_write", body: body))
    }

    /// The opened target, opening it on first use. Loop thread.
    private func opened() throws(UVError) -> OutputTarget {
        switch target.value {
        case .stream(let stream):
            return .stream(stream)
        case .file(let writer):
            return .file(writer)
        case .unopened:
            switch try StandardDescriptor.open(descriptor, forWriting: true, loop: loop) {
            case .stream(let handle):
                let stream = StreamConnection(handle: handle)
                target.value = .stream(stream)
                return .stream(stream)
            case .file(let file):
                let writer = FileWriter(loop: loop, file: file, name: "fd \(descriptor)")
                target.value = .file(writer)
                return .file(writer)
            }
        }
    }

    deinit {
        close()
    }
}

extension Loop {
    /// A writer for standard output (descriptor 1); see `StandardOutput`.
    public func standardOutput() -> StandardOutput {
        StandardOutput(loop: self, descriptor: 1)
    }

    /// A writer for standard error (descriptor 2); see `StandardOutput`.
    public func standardError() -> StandardOutput {
        StandardOutput(loop: self, descriptor: 2)
    }
}

/// Where a `StandardOutput` writes, once opened.
private enum OutputTarget {
    case stream(StreamConnection)
    case file(FileWriter)

    func write(_ bytes: ByteBuffer, _ finish: @escaping (UVError?) -> Void) {
        switch self {
        case .stream(let stream):
            _ = stream.write(bytes).subscribe(onCompleted: { finish(nil) }, onError: { finish($0 as? UVError) })
        case .file(let writer):
            writer.write(bytes, finish)
        }
    }

    func flush(_ finish: @escaping (UVError?) -> Void) {
        switch self {
        case .stream(let stream):
            // An empty write completes after every write queued before it.
            _ = stream.write([ByteBuffer]()).subscribe(onCompleted: { finish(nil) }, onError: { finish($0 as? UVError) })
        case .file(let writer):
            writer.write(nil, finish)
        }
    }
}
