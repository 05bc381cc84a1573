@_spi(Bridge) import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// The observable of `loop.rx.stdin`.
final class StandardInput: Producer<ByteBuffer> {
    private let loop: Loop

    init(loop: Loop) {
        self.loop = loop
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: SinkBase, subscription: Disposable) where Observer.Element == ByteBuffer {
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
