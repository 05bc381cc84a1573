#if canImport(Glibc)
import Glibc
#endif

/// Finds the program `uv_spawn` starts, before the child exists, so that a
/// missing one fails with `ENOENT` naming it.
enum ExecutableSearch {
    /// The directories searched when `PATH` is not set, as `execvp` does.
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// `name` itself when it has a slash (libuv reports a missing one);
    /// otherwise the first executable regular file `dir/name` for the
    /// directories of `path`, or `nil`.
    static func locate(_ name: String, path: String?) -> String? {
        if name.contains("/") {
            return name
        }
        guard !name.isEmpty else { return nil }
        for directory in (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: false) {
            // An empty entry is the working directory, as for `execvp`.
            let candidate = directory.isEmpty ? name : "\(directory)/\(name)"
            if isExecutableFile(candidate) {
                return candidate
            }
        }
        return nil
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// This process's environment (`environ`).
    static func currentEnvironment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
