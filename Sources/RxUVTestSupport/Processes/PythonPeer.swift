import RxCore
import RxUV
import XCTest

/// A Python script run as a peer on a test's loop (a `websockets` server
/// or client), its standard output gathered as it comes: the first line
/// (a port, "open") read while it runs, the rest once it exits.
public final class PythonPeer: Sendable {
    private let child: ChildProcess
    private let loop: Loop
    private let output = Shared<String>("")
    private let reading: Disposable

    private init(child: ChildProcess, loop: Loop) {
        self.child = child
        self.loop = loop
        let output = output
        reading = child.stdout.subscribe(onNext: { bytes in output.mutate { $0 += bytes.string } })
    }

    /// Starts `python3 -c script arguments…` on `loop`.
    public static func start(_ script: String, _ arguments: [String] = [], on loop: Loop) async throws -> PythonPeer {
        PythonPeer(child: try await loop.rx.spawn(ProcessOptions("python3", arguments: ["-c", script] + arguments)).value, loop: loop)
    }

    /// The first line of its output, waited for up to ten seconds.
    public func firstLine() async throws -> String {
        for _ in 0..<2000 {
            let text = output.value
            if let newline = text.firstIndex(of: "\n") { return String(text[..<newline]) }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw UVError(code: .timedOut, operation: "python peer: no line within 10 s")
    }

    /// What it wrote after its first line, once it has exited (at most ten
    /// seconds later: then it is killed).
    public func rest() async throws -> String {
        let exited = try await child.exit.asObservable().timeout(.seconds(10), scheduler: loop).asSingle().value
        XCTAssertEqual(exited, .exited(0), output.value)
        let text = output.value
        guard let newline = text.firstIndex(of: "\n") else { return "" }
        return String(text[text.index(after: newline)...])
    }

    /// Kills it (if it still runs) and waits for its exit.
    public func stop() async {
        _ = try? await child.kill().value
        _ = try? await child.exit.value
        reading.dispose()
    }
}
