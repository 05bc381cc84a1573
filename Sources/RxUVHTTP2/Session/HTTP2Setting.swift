/// The SETTINGS identifiers a session announces (RFC 9113 §6.5.2).
package enum HTTP2Setting {
    package static let enablePush: Int32 = 0x2
    package static let maxConcurrentStreams: Int32 = 0x3
    package static let initialWindowSize: Int32 = 0x4
    package static let maxHeaderListSize: Int32 = 0x6
}
