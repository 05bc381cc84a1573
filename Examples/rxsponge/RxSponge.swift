import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

/// `rxsponge`: soak up standard input, then write it to a file, atomically.
@main
struct RxSponge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rxsponge",
        abstract: "Soak up standard input and write it to a file, as sponge does.",
        discussion: """
            Reads all of standard input first, so `grep x file | rxsponge file` works. \
            The file is replaced atomically: the bytes go to a temporary file in the same \
            directory, which is flushed to disk and renamed over FILE, so a reader, or a \
            crash part way, sees the old contents or the new, never a part; FILE keeps its \
            permissions. With --in-place, FILE is truncated and written where it is. Input \
            larger than --max-size is refused and FILE left alone. Exits 0 once FILE is \
            written, 1 on an error (reported on standard error).
            """
    )

    @Argument(help: "The file to write.")
    var file: String

    @Flag(help: "Write FILE in place instead of replacing it atomically.")
    var inPlace = false

    @Option(help: "The most input accepted, in bytes.")
    var maxSize = 1 << 30

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard maxSize >= 0 else {
            throw ValidationError("--max-size must be at least 0.")
        }
    }

    func run() throws {
        let loop = try Loop()
        loop.logger = logging.bootstrap("rxsponge")
        let errors = loop.standardError()
        var exitCode: Int32 = 0
        let limit = maxSize
        let path = file

        let soaked = loop.rx.stdin
            .scan(into: (chunks: [ByteBuffer](), total: 0)) { soaked, chunk in
                soaked.total += chunk.count
                guard soaked.total <= limit else {
                    throw ValidationError("standard input holds more than --max-size (\(limit) bytes); \(path) is left alone")
                }
                soaked.chunks.append(chunk)
            }
            .takeLast(1)
            .map { ByteBuffer(concatenating: $0.chunks) }
            .ifEmpty(default: ByteBuffer())
        let sponge =
            soaked
            .flatMap { bytes in loop.rx.writeFile(path: path, bytes: bytes, atomic: !inPlace).asObservable() }
            .subscribe(onError: { error in
                exitCode = 1
                _ = errors.write("rxsponge: \(error)\n").subscribe()
            })
        loop.run()
        sponge.dispose()
        errors.close()
        loop.run()
        try? loop.close()
        if exitCode != 0 {
            throw ExitCode(exitCode)
        }
    }
}
