import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Where answers go: standard output, through RxUV's writer
/// (`loop.standardOutput()`: a pipe, a terminal or a file, each write in
/// order and awaited before the next piece of a body is read). `-o FILE`
/// puts the file in the place of standard output first, as a shell's
/// `> FILE` would, so the same writer writes it (`uv_fs_write` on libuv's
/// thread pool).
struct Output: Sendable {
    /// The writer of descriptor 1.
    let writer: StandardOutput

    /// Opens the file at `path` for writing (created `0666` less the
    /// umask, or truncated) and makes it descriptor 1 (`dup2`). Call it
    /// before the writer's first write. Fails with exit 23.
    func redirect(to path: String) throws(FetchFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw FetchFailure.output("\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard dup2(descriptor, 1) >= 0 else {
            throw FetchFailure.output("\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `bytes`, returning once they are written. Fails with exit 23
    /// (`EPIPE` when the reader of a pipe has gone, `ENOSPC`...).
    func write(_ bytes: ByteBuffer) async throws(FetchFailure) {
        do {
            try await writer.write(bytes).value
        } catch {
            throw FetchFailure.output("\(error)")
        }
    }

    /// Writes the UTF-8 bytes of `text`; see `write(_:)`.
    func write(_ text: String) async throws(FetchFailure) {
        try await write(ByteBuffer(string: text))
    }

    /// Returns once every byte written before is out, then closes what the
    /// writer opened. Fails with exit 23.
    func finish() async throws(FetchFailure) {
        defer { writer.close() }
        do {
            try await writer.flush().value
        } catch {
            throw FetchFailure.output("\(error)")
        }
    }
}
