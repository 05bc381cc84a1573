#if canImport(Glibc)
import Glibc
#endif

/// Finds the program `uv_spawn` starts, before the child exists, so that a
/// missing one fails with `ENOENT` naming it.
enum ExecutableSearch {
    /// The directories searched when `PATH` is not set, as `execvp` does.
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// What a search found.
    enum Found: Equatable {
        /// The program to run.
        case executable(String)
        /// A file by that name that may not be run (`EACCES`).
        case notExecutable(String)
        /// Nothing by that name (`ENOENT`).
        case missing
    }

    /// `name` itself when it has a slash (libuv reports a missing one);
    /// otherwise the first executable regular file `dir/name` for the
    /// directories of `path`, where an empty entry is the working directory
    /// and a relative one is taken from it (the child's, `directory`, when
    /// given), as `execvp` in the child would; failing that, the first such
    /// file that is not executable.
    static func locate(_ name: String, path: String?, directory: String?) -> Found {
        if name.contains("/") {
            return .executable(name)
        }
        guard !name.isEmpty else { return .missing }
        var firstUnrunnable: String?
        for entry in (path ?? defaultPath).split(separator: ":", omittingEmptySubsequences: false) {
            var base = entry.isEmpty ? "." : String(entry)
            if !base.hasPrefix("/"), let directory {
                base = "\(directory)/\(base)"
            }
            let candidate = "\(base)/\(name)"
            var status = stat()
            // A candidate that cannot be looked at is passed over, as a shell does.
            guard (try? systemCall("stat", address: candidate) { stat(candidate, &status) }) != nil, status.st_mode & S_IFMT == S_IFREG else { continue }
            if (try? systemCall("access", address: candidate) { access(candidate, X_OK) }) != nil {
                return .executable(candidate)
            }
            firstUnrunnable = firstUnrunnable ?? candidate
        }
        return firstUnrunnable.map { .notExecutable($0) } ?? .missing
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
