internal import CNGHTTP2
import HTTPTypes
import RxUV

/// One HTTP/2 session: nghttp2's state machine (frames, HPACK, flow
/// control, stream states) for one connection, fed the connection's bytes
/// (`receive`) and asked for what it has to send (`pendingOutput`). It
/// never touches the connection: what it hears it tells its `delegate`,
/// during those two calls, on the connection's loop thread. The only type
/// that speaks nghttp2's C API beside its callbacks
/// (`HTTP2SessionCallbacks`).
///
/// Windows are opened by the delegate (`consume`), not by nghttp2, so
/// that a request body nobody reads holds its stream's window shut.
package final class HTTP2Session {
    /// Whom the session tells what it hears. The delegate owns the session.
    unowned let delegate: any HTTP2SessionDelegate
    private let session: OpaquePointer
    /// What `pendingOutput` gathers, kept between calls.
    private var gathered: [UInt8] = []

    /// A server session with `settings` to announce (sent with the first
    /// output, after the client's preface is checked) and nghttp2's own
    /// defences set from `limits`.
    init(serverFor delegate: any HTTP2SessionDelegate, settings: [(id: Int32, value: UInt32)], limits: HTTP2SessionLimits) throws(HTTP2SessionError) {
        self.delegate = delegate
        session = try Self.make(limits: limits) { created, callbacks, option in nghttp2_session_server_new2(&created, callbacks, nil, option) }
        try start(settings: settings)
    }

    /// A client session with `settings` to announce (sent after the
    /// connection preface with the first output), nghttp2's defences set
    /// from `limits`, and the connection's receive window opened to
    /// `connectionWindow` bytes (each stream's is `settings`' initial
    /// window).
    package init(
        clientFor delegate: any HTTP2SessionDelegate, settings: [(id: Int32, value: UInt32)], limits: HTTP2SessionLimits, connectionWindow: Int32
    ) throws(HTTP2SessionError) {
        self.delegate = delegate
        session = try Self.make(limits: limits) { created, callbacks, option in nghttp2_session_client_new2(&created, callbacks, nil, option) }
        try start(settings: settings)
        let opened = nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, connectionWindow)
        guard opened == 0 else { throw HTTP2SessionError(code: opened) }
    }

    /// A session made by `create` (a server's or a client's) with the
    /// options both take.
    private static func make(
        limits: HTTP2SessionLimits, _ create: (inout OpaquePointer?, OpaquePointer, OpaquePointer) -> Int32
    ) throws(HTTP2SessionError) -> OpaquePointer {
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { throw HTTP2SessionError(code: Int32(NGHTTP2_ERR_NOMEM.rawValue)) }
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_no_auto_window_update(option, 1)
        nghttp2_option_set_max_continuations(option, limits.maxContinuations)
        nghttp2_option_set_max_settings(option, limits.maxSettingsEntries)
        nghttp2_option_set_max_outbound_ack(option, limits.maxOutboundAcks)
        // Resets are bounded by the delegate, with PINGs and SETTINGS
        // (`sessionFreeFrame`): nghttp2's own bucket is set out of reach.
        nghttp2_option_set_stream_reset_rate_limit(option, UInt64.max / 2, UInt64.max / 2)
        // Closed streams are not kept for priorities: priority is ignored
        // (RFC 9113 §5.3.2 deprecates it).
        nghttp2_option_set_no_closed_streams(option, 1)
        var created: OpaquePointer?
        // The session object outlives nghttp2's: `deinit` deletes it.
        let status = HTTP2SessionCallbacks.withTable { callbacks in create(&created, callbacks, option) }
        guard status == 0, let created else { throw HTTP2SessionError(code: status) }
        return created
    }

    /// Sets the session's user data and submits its SETTINGS.
    private func start(settings: [(id: Int32, value: UInt32)]) throws(HTTP2SessionError) {
        nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())
        var entries = settings.map { nghttp2_settings_entry(settings_id: $0.id, value: $0.value) }
        let submitted = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
        guard submitted == 0 else { throw HTTP2SessionError(code: submitted) }
    }

    deinit {
        nghttp2_session_del(session)
    }

    /// Processes the peer's `bytes`, telling the delegate what they hold.
    /// Throws when the session cannot go on (a bad preface, a connection
    /// error nghttp2 answered with GOAWAY, a flood it refuses): its last
    /// frames are still in `pendingOutput`.
    package func receive(_ bytes: ByteBuffer) throws(HTTP2SessionError) {
        let processed = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            return nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        if processed < 0 { throw HTTP2SessionError(code: Int32(processed)) }
    }

    /// What the session has to send now, up to about `limit` bytes (its
    /// frames whole), in one buffer; `nil` when nothing. Asks the body
    /// readers of the streams it may send DATA for.
    package func pendingOutput(limit: Int) throws(HTTP2SessionError) -> ByteBuffer? {
        gathered.removeAll(keepingCapacity: true)
        while gathered.count < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 { throw HTTP2SessionError(code: Int32(count)) }
            guard count > 0, let data else { break }
            gathered.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
        guard !gathered.isEmpty else { return nil }
        return ByteBuffer(gathered)
    }

    /// Whether the session still reads or has frames to send: when
    /// neither, it is over (a GOAWAY both ways, or sent after an error).
    package var isOver: Bool {
        nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
    }

    /// Whether frames wait to be sent.
    package var wantsWrite: Bool {
        nghttp2_session_want_write(session) != 0
    }

    /// Submits a response on `stream`: `fields` (`:status` first) and,
    /// when `hasBody`, a body the delegate is asked for
    /// (`sessionBody(stream:into:)`) as the peer's windows allow.
    func submitResponse(stream: Int32, fields: HTTP2FieldBlock, hasBody: Bool) -> Bool {
        fields.withEntries { entries, count in
            if hasBody {
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: HTTP2SessionCallbacks.readBody)
                return nghttp2_submit_response(session, stream, entries, count, &provider) == 0
            }
            return nghttp2_submit_response(session, stream, entries, count, nil) == 0
        }
    }

    /// Submits a request: `fields` (the pseudo-fields first) and, when
    /// `hasBody`, a body the delegate is asked for
    /// (`sessionBody(stream:into:)`) as the server's windows allow. Returns
    /// the new stream's identifier, or `nil` when the session takes no
    /// more streams (its identifiers are spent, or a GOAWAY came).
    package func submitRequest(fields: HTTP2FieldBlock, hasBody: Bool) -> Int32? {
        let stream = fields.withEntries { entries, count in
            if hasBody {
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: HTTP2SessionCallbacks.readBody)
                return nghttp2_submit_request(session, nil, entries, count, &provider, nil)
            }
            return nghttp2_submit_request(session, nil, entries, count, nil, nil)
        }
        return stream > 0 ? stream : nil
    }

    /// How many streams the peer lets this side open at once (its
    /// SETTINGS_MAX_CONCURRENT_STREAMS; unbounded until its SETTINGS
    /// came).
    package var peerMaxConcurrentStreams: Int {
        Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
    }

    /// Submits `fields` as `stream`'s trailers, which end it: called while
    /// the stream's body gives its last bytes (`HTTP2BodyChunk`'s
    /// `lastBeforeTrailers`). `false` when nghttp2 refused them.
    package func submitTrailers(stream: Int32, fields: HTTP2FieldBlock) -> Bool {
        fields.withEntries { entries, count in nghttp2_submit_trailer(session, stream, entries, count) == 0 }
    }

    /// Attaches `object` to `stream` (nghttp2's stream user data), not
    /// retained: its owner detaches it (`detach(from:)`) before letting it
    /// go.
    package func attach<Object: AnyObject>(_ object: Object, to stream: Int32) {
        _ = nghttp2_session_set_stream_user_data(session, stream, Unmanaged.passUnretained(object).toOpaque())
    }

    /// Takes off what `attach(_:to:)` attached to `stream`.
    package func detach(from stream: Int32) {
        _ = nghttp2_session_set_stream_user_data(session, stream, nil)
    }

    /// The object of type `Object` attached to `stream`, if it is open and
    /// has one: found in nghttp2's own stream map, with no lookup of ours.
    /// Only objects of that type are ever attached.
    package func attached<Object: AnyObject>(to stream: Int32, as type: Object.Type) -> Object? {
        guard let pointer = nghttp2_session_get_stream_user_data(session, stream) else { return nil }
        return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// A body whose reader said "nothing yet" has more (or its end).
    package func resumeBody(stream: Int32) {
        _ = nghttp2_session_resume_data(session, stream)
    }

    /// Resets `stream` with `code` (RST_STREAM).
    package func reset(stream: Int32, code: HTTP2ErrorCode) {
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, code.rawValue)
    }

    /// `count` bytes of DATA were taken off the connection: its window
    /// opens again by them (a WINDOW_UPDATE once enough were).
    package func consumeConnection(_ count: Int) {
        _ = nghttp2_session_consume_connection(session, count)
    }

    /// `count` bytes of `stream`'s DATA were read by its consumer: the
    /// stream's window opens by them.
    package func consumeStream(_ stream: Int32, _ count: Int) {
        guard count > 0 else { return }
        _ = nghttp2_session_consume_stream(session, stream, count)
    }

    /// Says goodbye: GOAWAY with `code`, naming the last stream the
    /// session took, so the peer knows which requests it may retry. The
    /// streams already open go on.
    package func goAway(_ code: HTTP2ErrorCode) {
        let last = nghttp2_session_get_last_proc_stream_id(session)
        _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, code.rawValue, nil, 0)
    }

    /// Ends the session at once: GOAWAY with `code`; nothing more is
    /// read, and every stream ends.
    package func terminate(_ code: HTTP2ErrorCode) {
        _ = nghttp2_session_terminate_session(session, code.rawValue)
    }
}

/// A session's error: nghttp2's code (negative) and its own words.
package struct HTTP2SessionError: Error, CustomStringConvertible {
    let code: Int32

    package var description: String {
        "HTTP/2: " + String(cString: nghttp2_strerror(code))
    }

    /// The GOAWAY code that answers it: a flood (of acknowledgements the
    /// peer does not read, of CONTINUATIONs, of SETTINGS entries) is
    /// `ENHANCE_YOUR_CALM`, anything else the peer's `PROTOCOL_ERROR`.
    package var goAwayCode: HTTP2ErrorCode {
        switch code {
        case NGHTTP2_ERR_FLOODED.rawValue, NGHTTP2_ERR_TOO_MANY_CONTINUATIONS.rawValue, NGHTTP2_ERR_TOO_MANY_SETTINGS.rawValue:
            .enhanceYourCalm
        default:
            .protocolError
        }
    }
}

/// The bounds nghttp2 enforces itself, each ending the session when
/// passed (`HTTP2Options` documents each).
package struct HTTP2SessionLimits {
    var maxContinuations: Int
    var maxSettingsEntries: Int
    var maxOutboundAcks: Int

    package init(maxContinuations: Int, maxSettingsEntries: Int, maxOutboundAcks: Int) {
        self.maxContinuations = maxContinuations
        self.maxSettingsEntries = maxSettingsEntries
        self.maxOutboundAcks = maxOutboundAcks
    }
}
