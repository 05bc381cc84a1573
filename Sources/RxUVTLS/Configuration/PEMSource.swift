/// Where PEM text comes from: a file read when the `TLSContext` is made, or
/// bytes in memory. Certificates and keys of a `TLSConfiguration` are
/// given this way.
public enum PEMSource: Sendable, Hashable {
    /// A PEM file, read when the context is made (and again by
    /// `TLSContext.reload`).
    case file(String)
    /// PEM text in memory.
    case bytes([UInt8])

    /// PEM text in memory, from a string.
    public static func string(_ text: String) -> PEMSource {
        .bytes(Array(text.utf8))
    }

    /// The file's path or `PEM bytes`, for error messages.
    var origin: String {
        switch self {
        case .file(let path): path
        case .bytes: "PEM bytes"
        }
    }
}
