/// The three reserved bits of a frame's first byte, RSV1 to RSV3 (RFC 6455
/// §5.2): zero unless an extension negotiated on the connection gives them a
/// meaning (permessage-deflate, RFC 7692, marks a compressed message with
/// RSV1).
public struct WebSocketReservedBits: OptionSet, Sendable, Hashable {
    /// The bits, in the positions they have in the frame's first byte
    /// (0x40, 0x20, 0x10).
    public let rawValue: UInt8

    /// The bits of `rawValue` that are reserved bits; others are dropped.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x70
    }

    /// RSV1 (0x40): "per-message compressed" under permessage-deflate.
    public static let rsv1 = WebSocketReservedBits(rawValue: 0x40)
    /// RSV2 (0x20).
    public static let rsv2 = WebSocketReservedBits(rawValue: 0x20)
    /// RSV3 (0x10).
    public static let rsv3 = WebSocketReservedBits(rawValue: 0x10)
}
