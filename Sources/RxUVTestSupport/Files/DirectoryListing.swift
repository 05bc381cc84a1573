#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory listing without Foundation.
public enum DirectoryListing {
    /// The names in `directory` but `.` and `..`, sorted; none when it
    /// cannot be read.
    public static func entries(of directory: String) -> [String] {
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
