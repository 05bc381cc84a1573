/// One event of `loop.rx.watch`: a name in the watched directory (or the
/// watched file itself) was renamed or changed.
public struct FileEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened; libuv may report both at once.
    public struct Kind: OptionSet, Sendable, Hashable {
        public let rawValue: Int32

        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// Created, deleted, or renamed from or to the name (`UV_RENAME`).
        public static let rename = Kind(rawValue: 1)
        /// The contents or metadata changed (`UV_CHANGE`).
        public static let change = Kind(rawValue: 2)
    }

    /// The entry of a watched directory the event is about, or, when a file
    /// is watched, its own name; `nil` when libuv gives none.
    public let name: String?
    /// What happened.
    public let kind: Kind

    /// An event about `name`.
    public init(name: String?, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// "rename config", "change config".
    public var description: String {
        let kinds = [kind.contains(.rename) ? "rename" : nil, kind.contains(.change) ? "change" : nil].compactMap { $0 }
        return "\(kinds.joined(separator: "+")) \(name ?? "?")"
    }
}
