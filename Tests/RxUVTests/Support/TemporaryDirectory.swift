import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// A directory of one test's own in /tmp (`mkdtemp`), removed with the
/// files in it.
struct TemporaryDirectory {
    let path: String

    /// Makes `/tmp/<prefix>-XXXXXX`.
    init(_ prefix: String) throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw UVError(code: .permissionDenied, operation: "mkdtemp", address: prefix) }
        path = String(cString: made)
    }

    /// The names in the directory, sorted.
    var entries: [String] {
        DirectoryListing.entries(of: path)
    }

    /// Removes the files in the directory, then the directory.
    func remove() {
        for entry in entries { unlink("\(path)/\(entry)") }
        rmdir(path)
    }
}

/// Directory listing without Foundation.
enum DirectoryListing {
    /// The names in `directory` but `.` and `..`, sorted; none when it
    /// cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        // The name is read in place, up to its NUL: a `dirent` is only as
        // long as its name needs, so copying the whole `d_name` field would
        // read past it.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(handle) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
