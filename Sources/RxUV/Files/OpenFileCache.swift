@_spi(Bridge) import RxCore
import Synchronization

/// Open files kept by path, as nginx's `open_file_cache`: a file asked for
/// again within `validity` of its open is handed out at once, with no trip
/// to libuv's thread pool (no `open`, no `fstat`); after that it is opened
/// again. What a static-file server asks per request.
///
/// What a cached answer may be: up to `validity` old. A file changed in
/// place shows its new bytes at once (the descriptor reads the file as it
/// is) but its old `status` until then; a file replaced by a rename or
/// removed is still served as it was until then (the descriptor holds the
/// old file), and while one ask opens it again (the others meanwhile get
/// the file kept). A failed open is not kept, and drops the file kept for
/// the path: a missing file is looked for again on the next ask.
///
/// At most `capacity` files are kept (each holds a descriptor); past it the
/// one asked for least recently is dropped (it closes once no response
/// still sends it). Safe from any thread, shared by every loop of a group.
public final class OpenFileCache: Sendable {
    /// The most files kept open.
    public let capacity: Int
    /// How long an open file is handed out before it is opened again.
    public let validity: Duration

    private struct Entry {
        let file: OpenFile
        let opened: ContinuousClock.Instant
        var lastUse: UInt64
        /// Past `validity`, one ask opens the file again; until its open
        /// ends, the others get this one (not a hundred opens at once).
        var reopening = false
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var uses: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let state = Mutex(State())

    /// A cache of at most `capacity` open files (at least 1), each handed
    /// out for `validity` after its open (nginx's `open_file_cache_valid`
    /// is 60 s; the default here keeps a changed file's status at most a
    /// second behind).
    public init(capacity: Int = 1000, validity: Duration = .seconds(1)) {
        self.capacity = max(capacity, 1)
        self.validity = validity
    }

    /// The regular file at `path`: from the cache when it was opened less
    /// than `validity` ago (the Single succeeds during `subscribe`, on the
    /// subscribing thread), otherwise opened through `loop.rx.openFile(path:)`
    /// (its result on `loop`'s thread) and kept. Fails as `openFile` does
    /// (`ENOENT`, `EACCES`, `EISDIR` for a directory).
    public func file(at path: String, on loop: Loop) -> Single<OpenFile> {
        if let cached = lookUp(path) {
            return .just(cached)
        }
        return loop.rx.openFile(path: path).do(
            onSuccess: { [self] file in keep(file) },
            onError: { [self] _ in forget(path) },
            // An open disposed before it ended: the next ask opens again.
            onDispose: { [self] in reopenEnded(path) })
    }

    /// Files kept now.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Asks answered from the cache, and asks that opened the file, since
    /// the cache was made.
    public var statistics: (hits: Int, misses: Int) {
        state.withLock { ($0.hits, $0.misses) }
    }

    /// Drops every file kept (each closes once no response still sends it).
    public func removeAll() {
        let dropped = state.withLock { state -> [String: Entry] in
            defer { state.entries = [:] }
            return state.entries
        }
        _ = dropped // released here, outside the lock
    }

    /// The file kept for `path` if it was opened less than `validity` ago,
    /// at once, on the calling thread; `nil` otherwise, and then
    /// `file(at:on:)` gets it (a caller that answers at once when it can
    /// asks this first, then that).
    public func cachedFile(at path: String) -> OpenFile? {
        let now = ContinuousClock.now
        return state.withLock { state -> OpenFile? in
            guard let index = state.entries.index(forKey: path), now - state.entries.values[index].opened < validity else { return nil }
            return Self.use(at: index, in: &state)
        }
    }

    /// The file kept for `path`, unless it must be opened (`nil`): none is
    /// kept, or it is past `validity` and no other ask is opening it again
    /// (this one then does).
    private func lookUp(_ path: String) -> OpenFile? {
        let now = ContinuousClock.now
        return state.withLock { state -> OpenFile? in
            guard let index = state.entries.index(forKey: path) else {
                state.misses += 1
                return nil
            }
            let entry = state.entries.values[index]
            guard now - entry.opened < validity || entry.reopening else {
                state.misses += 1
                state.entries.values[index].reopening = true
                return nil
            }
            return Self.use(at: index, in: &state)
        }
    }

    /// Hands out the file of the entry at `index`, marking it the most
    /// recently asked, in place (the path is hashed once per ask).
    private static func use(at index: Dictionary<String, Entry>.Index, in state: inout State) -> OpenFile {
        state.uses &+= 1
        state.hits += 1
        state.entries.values[index].lastUse = state.uses
        return state.entries.values[index].file
    }

    /// An open of `path` ended: if the file kept is still the old one, the
    /// next ask past `validity` opens it again.
    private func reopenEnded(_ path: String) {
        state.withLock { $0.entries[path]?.reopening = false }
    }

    /// The file at `path` could not be opened again: it is not kept.
    private func forget(_ path: String) {
        let dropped = state.withLock { $0.entries.removeValue(forKey: path) }
        _ = dropped // released outside the lock
    }

    private func keep(_ file: OpenFile) {
        let evicted = state.withLock { state -> Entry? in
            state.uses &+= 1
            let replaced = state.entries.updateValue(Entry(file: file, opened: .now, lastUse: state.uses), forKey: file.path)
            guard replaced == nil, state.entries.count > capacity else { return replaced }
            // Past the capacity: the one asked for least recently goes.
            guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return nil }
            return state.entries.removeValue(forKey: oldest)
        }
        _ = evicted
    }
}
