internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// The file calls `readFile`, `writeFile` and `stat` make on one of
/// libuv's pool threads, as a whole (one trip to the pool instead of one
/// per call): libuv's file functions in their synchronous form (no
/// callback), each through `uvCall`, so a failure is a `UVError` naming
/// the call and the path.
enum BlockingFileSystem {
    /// Runs one synchronous `uv_fs_*` call and hands its request to `read`
    /// (for a status) before cleaning it up. Returns the call's result.
    @discardableResult
    private static func call(
        _ operation: StaticString, _ path: String, _ body: (UnsafeMutablePointer<uv_fs_t>) -> Int32,
        read: (UnsafeMutablePointer<uv_fs_t>) -> Void = { _ in }
    ) throws(UVError) -> Int {
        var request = uv_fs_t()
        return try withUnsafeMutablePointer(to: &request) { (request) throws(UVError) -> Int in
            defer { uv_fs_req_cleanup(request) }
            try uvCall(operation, address: path) { body(request) }
            read(request)
            return request.pointee.result
        }
    }

    /// `uv_fs_open`: a descriptor, closed on exec.
    static func open(_ path: String, flags: Int32, mode: Int32 = 0o666) throws(UVError) -> Int32 {
        Int32(try call("uv_fs_open", path) { uv_fs_open(nil, $0, path, flags | O_CLOEXEC, mode, nil) })
    }

    /// `uv_fs_close`.
    static func close(_ descriptor: Int32, path: String) throws(UVError) {
        try call("uv_fs_close", path) { uv_fs_close(nil, $0, descriptor, nil) }
    }

    /// `uv_fs_stat` (follows symbolic links); `.missing` for `ENOENT`.
    static func stat(_ path: String) throws(UVError) -> FileStatus {
        var status = FileStatus.missing
        do throws(UVError) {
            try call("uv_fs_stat", path, { uv_fs_stat(nil, $0, path, nil) }, read: { status = FileStatus($0.pointee.statbuf) })
        } catch  where error.code == .noSuchFileOrDirectory {
            return .missing
        }
        return status
    }

    /// `uv_fs_fstat`.
    static func stat(_ descriptor: Int32, path: String) throws(UVError) -> FileStatus {
        var status = FileStatus.missing
        try call("uv_fs_fstat", path, { uv_fs_fstat(nil, $0, descriptor, nil) }, read: { status = FileStatus($0.pointee.statbuf) })
        return status
    }

    /// `uv_fs_read` into `buffer` at the file's position: the count, 0 at
    /// the end of the file.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(UVError) -> Int {
        var uvBuffer = buffer.uvBuffer
        return try call("uv_fs_read", path) { uv_fs_read(nil, $0, descriptor, &uvBuffer, 1, -1, nil) }
    }

    /// `uv_fs_write` of every byte of `bytes` (as many calls as it takes).
    static func writeAll(_ descriptor: Int32, _ bytes: ByteBuffer, path: String) throws(UVError) {
        var offset = 0
        while offset < bytes.count {
            let rest = bytes.slice(offset..<bytes.count)
            var uvBuffer = rest.uvBuffer()
            offset += try withExtendedLifetime(rest) { () throws(UVError) in
                try call("uv_fs_write", path) { uv_fs_write(nil, $0, descriptor, &uvBuffer, 1, -1, nil) }
            }
        }
    }

    /// `uv_fs_fsync`.
    static func sync(_ descriptor: Int32, path: String) throws(UVError) {
        try call("uv_fs_fsync", path) { uv_fs_fsync(nil, $0, descriptor, nil) }
    }

    /// `uv_fs_fchmod`.
    static func changeMode(_ descriptor: Int32, to mode: UInt32, path: String) throws(UVError) {
        try call("uv_fs_fchmod", path) { uv_fs_fchmod(nil, $0, descriptor, Int32(mode), nil) }
    }

    /// `uv_fs_rename`.
    static func rename(_ path: String, to newPath: String) throws(UVError) {
        try call("uv_fs_rename", newPath) { uv_fs_rename(nil, $0, path, newPath, nil) }
    }

    /// `uv_fs_unlink`.
    static func unlink(_ path: String) throws(UVError) {
        try call("uv_fs_unlink", path) { uv_fs_unlink(nil, $0, path, nil) }
    }

    /// `uv_fs_mkstemp` of `template` (ending in `XXXXXX`), a file beside
    /// `path`: the descriptor and the file's path. An error names `path`,
    /// the file the caller means to write.
    static func makeTemporaryFile(beside path: String, template: String) throws(UVError) -> (descriptor: Int32, path: String) {
        var made = template
        let descriptor = Int32(
            try call("uv_fs_mkstemp", "\(path) (temporary file \(template))", { uv_fs_mkstemp(nil, $0, template, nil) }, read: { made = String(cString: $0.pointee.path) }))
        return (descriptor, made)
    }
}
