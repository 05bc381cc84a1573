import ArgumentParser
import ExampleSupport
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `rxcat`: `cat` as an Observable chain, standard input to standard output.
@main
struct RxCat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rxcat",
        abstract: "Copy standard input to standard output, as cat does.",
        discussion: """
            Standard input may be a terminal, a pipe, a socket or a file. With --number, \
            each line (LF or CRLF) is printed with its number; a line longer than \
            --max-line-length is an error. With --raw, a terminal on standard input is \
            read in raw mode (each key as it is typed, no echo) until Ctrl-D; its mode is \
            restored at the end, also when SIGINT or SIGTERM ends the program. Exits 0 \
            once every byte is written, 1 on an error (reported on standard error).
            """
    )

    @Flag(help: "Number the output lines, as cat -n does.")
    var number = false

    @Option(help: "With --number, the longest line accepted, in bytes.")
    var maxLineLength = 1 << 20

    @Flag(help: "Read a terminal on standard input in raw mode, until Ctrl-D.")
    var raw = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard maxLineLength >= 1 else {
            throw ValidationError("--max-line-length must be at least 1.")
        }
    }

    func run() throws {
        let loop = try Loop()
        loop.logger = logging.bootstrap("rxcat")
        let output = loop.standardOutput()
        let errors = loop.standardError()
        var exitCode: Int32 = 0

        // In raw mode, Ctrl-D is a byte like any other: the input ends there.
        let input: Observable<ByteBuffer> =
            raw
            ? loop.rx.terminal().asObservable().flatMap { terminal in
                terminal.setRawMode(true).andThen(loop.rx.stdin)
                    .take(until: { $0.firstIndex(of: 4) != nil }, behavior: .inclusive)
                    .map { chunk in chunk.firstIndex(of: 4).map { chunk.slice(at: 0, count: $0) } ?? chunk }
                    .do(onDispose: { terminal.close() })
            }
            : loop.rx.stdin
        let chunks: Observable<ByteBuffer>
        if number {
            var count = 0
            chunks = input.lines(maxLength: maxLineLength).map { line in
                count += 1
                let prefix = String(count)
                return ByteBuffer(string: String(repeating: " ", count: max(0, 6 - prefix.count)) + prefix + "\t") + line + ByteBuffer(string: "\n")
            }
        } else {
            chunks = input
        }
        // Each chunk is written in order; the copy ends with a flush, so the
        // loop (and the program) ends only when the last byte is out.
        let written = chunks.concatMap { output.write($0).asObservable() }
        let copy = written.concat(output.flush().asObservable())
            .subscribe(onError: { error in
                exitCode = 1
                _ = errors.write("rxcat: \(error)\n").subscribe()
            })
        loop.run()
        copy.dispose()
        output.close()
        errors.close()
        loop.run()
        try? loop.close()
        if exitCode != 0 {
            throw ExitCode(exitCode)
        }
    }
}
