#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix-domain socket, as the kernel recorded
/// it when the peer connected or listened (`SO_PEERCRED`): a daemon's control
/// socket can check the caller's user before obeying.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process ID.
    public let processID: pid_t
    /// The peer's effective user ID.
    public let userID: uid_t
    /// The peer's effective group ID.
    public let groupID: gid_t

    /// Credentials with the given IDs.
    public init(processID: pid_t, userID: uid_t, groupID: gid_t) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }

    /// `pid 123 uid 1000 gid 1000`.
    public var description: String {
        "pid \(processID) uid \(userID) gid \(groupID)"
    }
}
