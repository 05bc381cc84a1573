import RxUV

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of one test's own in /tmp (`mkdtemp`), removed with the
/// files in it.
public struct TemporaryDirectory: Sendable {
    /// The directory's path (`/tmp/<prefix>-XXXXXX`).
    public let path: String

    /// Makes `/tmp/<prefix>-XXXXXX`.
    public init(_ prefix: String) throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw UVError(code: .permissionDenied, operation: "mkdtemp", address: prefix) }
        path = String(cString: made)
    }

    /// The names in the directory, sorted.
    public var entries: [String] {
        DirectoryListing.entries(of: path)
    }

    /// Removes the files in the directory, then the directory.
    public func remove() {
        for entry in entries { unlink("\(path)/\(entry)") }
        rmdir(path)
    }
}
