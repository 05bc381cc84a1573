#if canImport(Glibc)
import Glibc
#endif

/// Writes to a regular file in order, one `uv_fs_write` at a time (the
/// thread pool would otherwise reorder them). Loop thread only.
final class FileWriter {
    private let loop: Loop
    /// What errors name: the descriptor the caller knows (`fd 1`), not
    /// the duplicate written through.
    private let name: String
    /// The file, until closed.
    private var file: OwnedDescriptor?
    /// Writes waiting: bytes (`nil` for a flush) and who to tell.
    private var queue: [(bytes: ByteBuffer?, finish: (UVError?) -> Void)] = []
    private var isWriting = false
    private var closeWhenDone = false

    /// Writes to `file`, which it owns from here; errors name it `name`.
    init(loop: Loop, file: consuming OwnedDescriptor, name: String) {
        self.loop = loop
        self.name = name
        self.file = consume file
    }

    func write(_ bytes: ByteBuffer?, _ finish: @escaping (UVError?) -> Void) {
        queue.append((bytes, finish))
        next()
    }

    func close() {
        closeWhenDone = true
        next()
    }

    private func next() {
        guard !isWriting else { return }
        guard !queue.isEmpty else {
            if closeWhenDone {
                file = nil
            }
            return
        }
        let (bytes, finish) = queue.removeFirst()
        guard let descriptor = file?.descriptor else {
            finish(UVError(code: UVError.Code.badFileDescriptor, operation: "uv_fs_write", address: name))
            next()
            return
        }
        guard let bytes, bytes.count > 0 else {
            finish(nil)
            next()
            return
        }
        do throws(UVError) {
            isWriting = true
            _ = try UVFileRequest(loop: loop, writing: bytes, to: descriptor) { [self] written in
                isWriting = false
                if written < 0 {
                    finish(UVError(status: Int32(written), operation: "uv_fs_write", address: name))
                } else if written < bytes.count {
                    // A short write: the rest goes first.
                    queue.insert((bytes.slice(at: written, count: bytes.count - written), finish), at: 0)
                } else {
                    finish(nil)
                }
                next()
            }
        } catch {
            isWriting = false
            finish(error)
            next()
        }
    }
}
