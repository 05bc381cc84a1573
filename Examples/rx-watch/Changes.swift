import RxCore
import RxUV

/// What is watched for a list of paths: each directory given as is (a change
/// to any entry counts), and for each file (or missing path) its parent
/// directory, filtered by name, so editors' atomic saves (write a temporary
/// file, rename it over the original), delete and re-create are all seen.
///
/// Watching the name rather than the file matters: a watch on the file
/// follows its inode, which the first atomic save replaces.
struct WatchPlan: Equatable {
    /// Directories whose every entry counts.
    var directories: Set<String> = []
    /// Parent directory → the names in it that count.
    var names: [String: Set<String>] = [:]

    init(_ paths: [(path: String, isDirectory: Bool)]) {
        for (path, isDirectory) in paths {
            if isDirectory {
                directories.insert(path)
            } else {
                let (directory, name) = split(path)
                names[directory, default: []].insert(name)
            }
        }
    }

    /// The number of watches (inotify watches are per directory).
    var watchCount: Int {
        directories.union(names.keys).count
    }

    /// One event per change to a watched path, on the loop thread; fails
    /// with the `UVError` of a watch that cannot start (`ENOENT` for a
    /// missing directory).
    func changes(on loop: Loop) -> Observable<FileEvent> {
        let watches = directories.union(names.keys).sorted().map { directory -> Observable<FileEvent> in
            let events = loop.rx.watch(path: directory)
            if directories.contains(directory) {
                return events
            }
            let wanted = names[directory] ?? []
            return events.filter { event in event.name.map(wanted.contains) ?? false }
        }
        return Observable.merge(watches)
    }
}

/// `("dir/sub", "file")` for `dir/sub/file`; `(".", "file")` for `file`;
/// a trailing slash is dropped first.
func split(_ path: String) -> (directory: String, name: String) {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return (".", String(path)) }
    let directory = path[..<slash]
    return (directory.isEmpty ? "/" : String(directory), String(path[path.index(after: slash)...]))
}

/// The paths to watch, each with whether it is a directory (a missing path
/// is watched as a file, so its creation counts).
func classify(_ paths: [String], on loop: Loop) -> Single<[(path: String, isDirectory: Bool)]> {
    Observable.from(paths)
        .concatMap { path in
            loop.rx.stat(path: path).map { status in (path: path, isDirectory: status.kind == .directory) }
        }
        .toArray()
}
