#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test certificates of `scripts/tls-test-certificates.py` (a CA, a
/// server for `localhost`, 127.0.0.1 and ::1, an expired one, one for
/// `other.example`, a client, a rogue CA…), made once per test process in
/// a temporary folder (new keys every run, none committed) and removed
/// when the process exits. Shared by the suites that speak TLS.
public enum TestCertificateFolder {
    /// The folder's path; made on first use.
    public static let path: String = {
        let folder = "/tmp/rxuv-tls-\(getpid())"
        // This file is Sources/RxUVTestSupport/TLS/: the script is three
        // folders up, in scripts/.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        let script = parts.joined(separator: "/") + "/scripts/tls-test-certificates.py"
        precondition(run(["python3", script, folder]) == 0, "\(script) failed")
        made = folder
        atexit {
            if let made { _ = TestCertificateFolder.run(["rm", "-rf", made]) }
        }
        return folder
    }()

    /// The path of `name` in the folder (`ca.pem`).
    public static func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Runs `arguments` (found on the PATH) and returns its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var pid = pid_t()
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        guard posix_spawnp(&pid, arguments[0], nil, nil, &cArguments, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

nonisolated(unsafe) private var made: String?
