@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// The bytes of the process's standard input, one `ByteBuffer` per read,
    /// whatever descriptor 0 is: a terminal (`uv_tty_t`), a pipe or FIFO
    /// (reopened, so the shared descriptor's flags are left alone), a socket,
    /// or a regular file (read on libuv's thread pool with `uv_fs_read`,
    /// since epoll cannot watch files). Chain `lines(maxLength:)` for lines.
    ///
    /// Completes at the end of input; errors with the read's `UVError`.
    /// Events arrive on the loop thread. Disposing stops reading and
    /// closes what RxUV opened (never descriptor 0 itself). One subscriber
    /// at a time makes sense: two would split the input between them.
    public var stdin: Observable<ByteBuffer> {
        StandardInput(loop: base)
    }
}

/// The observable of `loop.rx.stdin`.
private final class StandardInput: Producer<ByteBuffer> {
    private let loop: Loop

    init(loop: Loop) {
        self.loop = loop
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: Disposable, subscription: Disposable) where Observer.Element == ByteBuffer {
        let sink = StandardInputSink(loop: loop, observer: observer, cancel: cancel)
        sink.start("uv_read_start")
        return (sink: sink, subscription: Disposables.create())
    }

    /// Reads standard input: as any stream is read, or a file's reads one
    /// request at a time (`FileReadingSink`).
    private final class StandardInputSink<Observer: ObserverType>: FileReadingSink<Observer>, @unchecked Sendable where Observer.Element == ByteBuffer {
        override func open() throws(UVError) {
            switch try StandardDescriptor.open(0, forWriting: false, loop: loop) {
            case .stream(let handle):
                read(StreamConnection(handle: handle))
            case .file(let descriptor):
                try readFile(descriptor, name: "stdin", chunkSize: 64 * 1024)
            }
        }
    }
}
