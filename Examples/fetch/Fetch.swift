import ArgumentParser
import ExampleSupport
import HTTPTypes
import Logging
import RxCore
import RxUV
import RxUVHTTP2
import RxUVHTTPClient
import RxUVTLS

#if canImport(Glibc)
import Glibc
#endif

/// `fetch`: a small `curl` on RxUV's HTTP client. Its `main` is one async
/// function on a loop (`loop.run { … }`): the body to send read, each URL
/// sent (`client.execute`) and its response's body written as it arrives
/// (`response.body.values`), or with `--parallel` many URLs at once
/// (`client.rx.send` chains under `merge(maxConcurrent:)`); then the
/// client shut down.
@main
struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Transfer URLs over HTTP/1.1 (http and https), as curl does.",
        discussion: """
            Writes each response's body to standard output (or -o FILE) as it \
            arrives. With --parallel N, fetches at most N URLs at once (read from \
            standard input, one a line, when none is given) and prints one line \
            per URL: STATUS BYTES URL, or ERROR REASON URL. Exit codes are curl's: \
            0 ok; 1 bad usage or a URL that is not http or https; 6 a host name \
            that does not resolve; 7 no connection (refused, unreachable); 8 a \
            response the decoder refused; 18 a body cut short; 22 a status of 400 \
            or more with --fail; 23 the output cannot be written; 26 the body to \
            send (or the URLs) cannot be read; 28 a timeout; 35 a failed TLS \
            handshake; 47 too many redirects; 52 no response before the close; 56 \
            another failure while receiving; 60 a server certificate that does \
            not verify; 61 a compressed body that does not inflate. With several \
            URLs, the first failure's code (the others are still fetched).
            """
    )

    @Argument(help: ArgumentHelp("http:// or https:// URLs.", valueName: "url"))
    var urls: [String] = []

    @Option(name: [.customShort("X"), .customLong("request")], help: ArgumentHelp("The method (default: GET, or POST with a body).", valueName: "method"))
    var method: String?

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A header field, \"Name: value\"; \"Name:\" drops one the client adds (User-Agent, Accept). Repeatable.", valueName: "field"))
    var headers: [String] = []

    @Option(name: [.customShort("d"), .customLong("data")], help: ArgumentHelp("Send this string as the body (several are joined with &).", valueName: "string"))
    var data: [String] = []

    @Option(name: .customLong("data-binary"), help: ArgumentHelp("Send this body: @FILE for a file's bytes, @- for standard input, else the string.", valueName: "@file"))
    var dataBinary: String?

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Write the status line and the header fields before the body.")
    var include = false

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "Exit 22 on a status of 400 or more, and write no body.")
    var fail = false

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Follow redirects (never from https to http).")
    var location = false

    @Option(name: .customLong("max-redirs"), help: ArgumentHelp("With -L, at most this many redirects (then exit 47).", valueName: "n"))
    var maxRedirects = 50

    @Flag(name: .customLong("compressed"), help: "Ask for a gzip or deflate body (Accept-Encoding) and write it inflated.")
    var compressed = false

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Give up on a connect (and TLS handshake) after this long: 2, 1.5s, 500ms.", valueName: "time"))
    var connectTimeout = Interval(argument: "10s")!

    @Option(name: [.customShort("m"), .customLong("max-time")], help: ArgumentHelp("Give up on a whole transfer after this long (default: no bound).", valueName: "time"))
    var maxTime: Interval?

    @Option(help: ArgumentHelp("Fetch the URLs N at a time (from standard input when none is given); print a line per URL.", valueName: "n"))
    var parallel: Int?

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 only (by default https agrees on HTTP/2 through ALPN when the server offers it).")
    var http1 = false

    @Flag(name: .customLong("http2-prior-knowledge"), help: "Speak HTTP/2 only: over http with prior knowledge (h2c), over https through ALPN.")
    var http2PriorKnowledge = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Trust these CA certificates (PEM) for https instead of the system's.", valueName: "file"))
    var caCertificates: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not verify the server's certificate.")
    var insecure = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "Write no error message to standard error.")
    var silent = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Log each request's and response's head, and RxUV's diagnostics (--log-level debug).")
    var verbose = false

    @OptionGroup var logging: LoggingOptions

    /// Runs the command; a usage error exits 1, as curl's refusals do,
    /// rather than ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Console.error(fullMessage(for: error))
            exit(withError: ExitCode(1))
        }
    }

    func validate() throws {
        if let parallel, parallel < 1 { throw ValidationError("--parallel must be at least 1.") }
        if urls.isEmpty, parallel == nil { throw ValidationError("Give a URL (or --parallel N with the URLs on standard input).") }
        if urls.isEmpty, dataBinary == "@-" { throw ValidationError("--data-binary @- reads standard input, which holds the URLs.") }
        if output != nil, urls.count != 1 || parallel != nil { throw ValidationError("-o takes one URL, without --parallel.") }
        if include, parallel != nil { throw ValidationError("-i does not go with --parallel.") }
        if !data.isEmpty, dataBinary != nil { throw ValidationError("Give -d or --data-binary, not both.") }
        if let method, HTTPRequest.Method(method) == nil { throw ValidationError("-X \(method) is not a method name.") }
        if maxRedirects < 0 { throw ValidationError("--max-redirs must be 0 or more.") }
        if connectTimeout.isZero || maxTime?.isZero == true { throw ValidationError("--connect-timeout and -m must be longer than 0.") }
        _ = try HeaderLines(headers)
    }

    func run() throws {
        var logging = logging
        if silent { logging.logLevel = .critical }
        if verbose { logging.logLevel = .debug }
        let logger = logging.bootstrap("fetch")
        let loop = try Loop()
        loop.logger = logger
        let headerLines = try HeaderLines(headers)
        let client = HTTPClient(loop: loop, configuration: clientConfiguration(dropping: headerLines.removed))
        let source = BodySource(data: data, dataBinary: dataBinary)
        let plan = requestPlan(headerLines, hasBody: source != .none)
        let (urls, parallel, outputPath, include, fail) = (urls, parallel, output, include, fail)

        // The whole tool, on the loop's thread; `run` returns its status
        // once the body has returned and the loop has nothing left to do.
        let status = try loop.run { () async throws -> Int32 in
            let output = Output(writer: loop.standardOutput())
            var status: Int32 = 0
            do throws(FetchFailure) {
                let body = try await source.load(on: loop)
                let transfers = Transfers(client: client, plan: plan, body: body, include: include, failOnError: fail, logger: logger)
                if let parallel {
                    let list = urls.isEmpty ? Self.lines(of: loop.rx.stdin) : Observable.from(urls)
                    status = await transfers.fetchAll(list, maxInFlight: parallel, into: output)
                } else {
                    for url in urls {
                        do throws(FetchFailure) {
                            try await transfers.fetch(url, into: output, outputPath: outputPath)
                        } catch {
                            logger.error("(\(error.exitCode)) \(url): \(error.message)")
                            if status == 0 { status = error.exitCode }
                        }
                    }
                }
                try await output.finish()
            } catch {
                logger.error("(\(error.exitCode)) \(error.message)")
                if status == 0 { status = error.exitCode }
            }
            // Idle connections close now; the loop then has nothing left.
            try await client.shutdown().value
            return status
        }
        try loop.close()
        if status != 0 {
            throw ExitCode(status)
        }
    }

    /// The lines of `input` (at most 64 KiB each), without their blanks;
    /// empty ones skipped.
    static func lines(of input: Observable<ByteBuffer>) -> Observable<String> {
        input.lines(maxLength: 64 * 1024).map(\.string.trimmingBlanks).filter { !$0.isEmpty }
    }

    /// The method, the `-H` fields (and `Content-Type` for a body) and `-m`.
    private func requestPlan(_ headerLines: HeaderLines, hasBody: Bool) -> RequestPlan {
        var fields = headerLines.fields
        if hasBody, fields[.contentType] == nil, !headerLines.removed.contains(.contentType) {
            fields[.contentType] = "application/x-www-form-urlencoded"
        }
        let method = method.flatMap { HTTPRequest.Method($0) } ?? (hasBody ? .post : .get)
        return RequestPlan(method: method, headerFields: fields, maxTime: maxTime?.duration)
    }

    /// The client: `--connect-timeout`; no bound on the head's wait (`-m`
    /// bounds the whole transfer, as curl's does); redirects only with
    /// `-L`; bodies inflated only with `--compressed` (with no bound on
    /// the inflated length, as curl's: it is written as it comes, never
    /// held); with `--parallel N`, N connections to a host; `User-Agent`
    /// and `Accept` unless `-H "Name:"` drops them (`dropped`);
    /// `--cacert` and `-k` for https; `--http1.1` or
    /// `--http2-prior-knowledge` for the versions spoken.
    private func clientConfiguration(dropping dropped: Set<HTTPField.Name>) -> HTTPClientConfiguration {
        var defaults: HTTPFields = [.userAgent: "fetch (RxUV)", .accept: "*/*"]
        for name in dropped {
            defaults[name] = nil
        }
        var tls = TLSConfiguration.client(trustRoots: caCertificates.map { .certificates(.file($0)) } ?? .system)
        if insecure {
            tls.peerVerification = .none
        }
        return HTTPClientConfiguration(
            maxConnectionsPerHost: parallel ?? 1,
            connectTimeout: connectTimeout.duration,
            headTimeout: nil,
            defaultHeaderFields: defaults,
            tls: tls,
            httpVersions: http2PriorKnowledge ? [.http2] : http1 ? [.http1] : [.http1, .http2],
            decompression: compressed ? .enabled(maxDecodedLength: .max) : .disabled,
            redirects: location ? .follow(max: maxRedirects, allowsInsecure: false) : .none
        )
    }
}
