internal import CLibUV

/// What the file system says about a path (`uv_stat_t`): from
/// `loop.rx.stat`, `loop.rx.watchFile` and `loop.rx.poll`.
///
/// A path that does not exist has the kind `.missing` and every other field
/// zero (as `uv_fs_poll` reports it).
public struct FileStatus: Sendable, Hashable, CustomStringConvertible {
    /// What kind of file the path names.
    public enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, pipe, socket, characterDevice, blockDevice
        /// The path does not exist.
        case missing
    }

    /// The kind of file.
    public let kind: Kind
    /// The size in bytes.
    public let size: UInt64
    /// The permission bits (`0o644`...), with set-user-id, set-group-id and
    /// sticky bits.
    public let permissions: UInt32
    /// The last modification of the contents, since the Unix epoch.
    public let modificationTime: Duration
    /// The last change of the contents or the metadata, since the Unix epoch.
    public let changeTime: Duration
    /// The inode number: a rename over the path gives it a new one.
    public let inode: UInt64
    /// The device the file is on.
    public let device: UInt64
    /// The number of hard links.
    public let linkCount: UInt64

    /// The status of a path that does not exist.
    public static let missing = FileStatus(kind: .missing, size: 0, permissions: 0, modificationTime: .zero, changeTime: .zero, inode: 0, device: 0, linkCount: 0)

    /// `true` unless the path is missing.
    public var exists: Bool {
        kind != .missing
    }

    /// "regular, 12 bytes, 0644, inode 1234".
    public var description: String {
        guard exists else { return "missing" }
        return "\(kind), \(size) bytes, 0\(String(permissions, radix: 8)), inode \(inode)"
    }

    init(kind: Kind, size: UInt64, permissions: UInt32, modificationTime: Duration, changeTime: Duration, inode: UInt64, device: UInt64, linkCount: UInt64) {
        self.kind = kind
        self.size = size
        self.permissions = permissions
        self.modificationTime = modificationTime
        self.changeTime = changeTime
        self.inode = inode
        self.device = device
        self.linkCount = linkCount
    }

    /// libuv's status; all zeros (what `uv_fs_poll` gives for a missing
    /// path) is `.missing`.
    init(_ status: uv_stat_t) {
        guard status.st_mode != 0 || status.st_ino != 0 else {
            self = .missing
            return
        }
        // The file-type bits of `st_mode` (S_IFMT and its values).
        let kind: Kind =
            switch UInt32(truncatingIfNeeded: status.st_mode) & 0o170000 {
            case 0o100000: .regular
            case 0o040000: .directory
            case 0o120000: .symbolicLink
            case 0o010000: .pipe
            case 0o140000: .socket
            case 0o020000: .characterDevice
            default: .blockDevice
            }
        self.init(
            kind: kind, size: status.st_size, permissions: UInt32(truncatingIfNeeded: status.st_mode) & 0o7777,
            modificationTime: Self.duration(status.st_mtim), changeTime: Self.duration(status.st_ctim),
            inode: status.st_ino, device: status.st_dev, linkCount: status.st_nlink)
    }

    private static func duration(_ time: uv_timespec_t) -> Duration {
        .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}
