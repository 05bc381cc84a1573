import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` with a file descriptor (`STDOUT_FILENO`, `STDERR_FILENO`)
/// redirected to a pipe and returns the lines written to it. Only for small
/// outputs (they must fit in the pipe buffer).
func captureOutput(of descriptor: Int32, _ body: () -> Void) -> [String] {
    fflush(nil) // every stream, standard output among them
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
        XCTFail("pipe() failed")
        return []
    }
    let saved = dup(descriptor)
    dup2(fds[1], descriptor)
    close(fds[1])
    body()
    fflush(nil)
    dup2(saved, descriptor)
    close(saved)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fds[0], &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    close(fds[0])
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
}
