/// A path cut at its last slash: the directory it is in and its name, for
/// the calls that work beside a file (an atomic write's temporary file, a
/// watch on the parent directory).
struct PathComponents {
    /// The directory: `.` for a bare name, `/` for a name at the root.
    let directory: String
    /// The last component.
    let name: String

    init(_ path: String) {
        guard let slash = path.lastIndex(of: "/") else {
            directory = "."
            name = path
            return
        }
        directory = slash == path.startIndex ? "/" : String(path[..<slash])
        name = String(path[path.index(after: slash)...])
    }

    /// `directory/prefix+name+suffix`, without a doubled slash at the root.
    func sibling(prefix: String = "", suffix: String = "") -> String {
        "\(directory == "/" ? "" : directory)/\(prefix)\(name)\(suffix)"
    }
}
