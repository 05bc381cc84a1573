internal import CNGHTTP2

/// nghttp2's callbacks, one table for every session: each finds its
/// `HTTP2Session` in the user data and tells the session's delegate.
enum HTTP2SessionCallbacks {
    /// The table, made once; nghttp2 copies it into each session.
    private static let table = UncheckedTable(makeTable())

    /// Calls `body` with the table.
    static func withTable<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        body(table.pointer)
    }

    /// The session whose user data `userData` is.
    private static func delegate(_ userData: UnsafeMutableRawPointer?) -> any HTTP2SessionDelegate {
        // The session sets itself as its user data when made and outlives
        // nghttp2's session (its deinit deletes it).
        Unmanaged<HTTP2Session>.fromOpaque(userData!).takeUnretainedValue().delegate
    }

    private static func makeTable() -> OpaquePointer {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            fatalError("nghttp2_session_callbacks_new: out of memory")
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
            let isRequest = frame.pointee.headers.cat.rawValue == NGHTTP2_HCAT_REQUEST.rawValue
            HTTP2SessionCallbacks.delegate(userData).sessionBeginsFields(stream: frame.pointee.hd.stream_id, isRequest: isRequest)
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, userData in
            guard let frame, let name, let value else { return 0 }
            let accepted = HTTP2SessionCallbacks.delegate(userData).sessionField(
                stream: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength))
            return accepted ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame else { return 0 }
            let header = frame.pointee.hd
            let endsStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            switch UInt32(header.type) {
            case NGHTTP2_HEADERS.rawValue:
                HTTP2SessionCallbacks.delegate(userData).sessionFieldsEnded(stream: header.stream_id, endsStream: endsStream)
            case NGHTTP2_DATA.rawValue:
                if endsStream { HTTP2SessionCallbacks.delegate(userData).sessionDataEnded(stream: header.stream_id) }
            case NGHTTP2_PING.rawValue:
                // An acknowledgement answers our own frame: it costs nothing.
                if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { HTTP2SessionCallbacks.delegate(userData).sessionFreeFrame(.control) }
            case NGHTTP2_SETTINGS.rawValue:
                if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 {
                    let delegate = HTTP2SessionCallbacks.delegate(userData)
                    delegate.sessionPeerSettings()
                    delegate.sessionFreeFrame(.control)
                }
            case NGHTTP2_RST_STREAM.rawValue:
                HTTP2SessionCallbacks.delegate(userData).sessionFreeFrame(.reset)
            case NGHTTP2_GOAWAY.rawValue:
                let goAway = frame.pointee.goaway
                HTTP2SessionCallbacks.delegate(userData).sessionGoAway(lastStream: goAway.last_stream_id, code: goAway.error_code)
            default:
                break
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, userData in
            guard let data else { return 0 }
            HTTP2SessionCallbacks.delegate(userData).sessionData(stream: stream, UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, code, userData in
            HTTP2SessionCallbacks.delegate(userData).sessionStreamClosed(stream: stream, code: code)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, userData in
            guard let frame else { return 0 }
            let header = frame.pointee.hd
            let type = UInt32(header.type)
            if type == NGHTTP2_DATA.rawValue || type == NGHTTP2_HEADERS.rawValue, header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 {
                HTTP2SessionCallbacks.delegate(userData).sessionSentEnd(stream: header.stream_id)
            }
            return 0
        }
        return callbacks
    }

    /// The body reader of every response with a body (the data
    /// provider's `read_callback`).
    static let readBody: nghttp2_data_source_read_callback = { _, stream, buffer, length, flags, _, userData in
        guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        switch HTTP2SessionCallbacks.delegate(userData).sessionBody(stream: stream, into: UnsafeMutableRawBufferPointer(start: buffer, count: length)) {
        case .bytes(let count, let last):
            if last { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
            return count
        case .lastBeforeTrailers(let count):
            // The DATA does not end the stream: the trailers' HEADERS do.
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
            return count
        case .deferred:
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        case .failed:
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
    }

    /// The table's pointer, immutable once made and shared by every
    /// session's creation (nghttp2 only reads it).
    private struct UncheckedTable: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }
}
