/// A route's (or a client call's) `WebSocketOptions`, made once and shared
/// by reference by every socket it opens, so that a socket holds one
/// pointer to them rather than its own copy.
final class WebSocketSettings: Sendable {
    let options: WebSocketOptions

    init(_ options: WebSocketOptions) {
        self.options = options
    }
}
