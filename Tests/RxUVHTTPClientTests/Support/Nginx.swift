import Foundation
import RxCore
import RxUV
import RxUVTestSupport

/// Debian's nginx as a test peer: one process (`master_process off`),
/// everything it writes inside a temporary folder, listening on ports the
/// OS picked; started on the test's loop, stopped with SIGTERM.
struct NginxPeer {
    static let binary = "/usr/sbin/nginx"
    let directory: TemporaryDirectory

    /// A port nobody listens on now (bound to 0 and let go).
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Returns once 127.0.0.1:`port` accepts a connection (within 2 s).
    static func waitListening(on loop: Loop, port: Int) async throws {
        for _ in 0..<100 {
            if let connection = try? await loop.rx.connect(host: "127.0.0.1", port: port).value {
                connection.close()
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw UVError(code: .timedOut, operation: "nobody listens on \(port)")
    }

    /// The configuration's frame around `http`: one worker, the pid, the
    /// error log and every temporary path inside the folder.
    func configuration(http: String) -> String {
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "    \($0)_temp_path \(directory.path)/\($0);" }
        return """
            worker_processes 1;
            daemon off;
            master_process off;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log off;
            \(temporary.joined(separator: "\n"))
            \(http)
            }
            """
    }

    /// Runs nginx with `http` on `loop` until `body` returns, once `port`
    /// accepts connections.
    func run<Result: Sendable>(
        on loop: Loop, http: String, port: Int, _ body: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let path = directory.path + "/nginx.conf"
        try configuration(http: http).write(toFile: path, atomically: true, encoding: .utf8)
        let nginx = try await loop.rx.spawn(ProcessOptions(Self.binary, arguments: ["-c", path])).value
        func stop() async {
            _ = try? await nginx.kill().value
            _ = try? await nginx.exit.value
        }
        do {
            try await Self.waitListening(on: loop, port: port)
            let result = try await body()
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}
