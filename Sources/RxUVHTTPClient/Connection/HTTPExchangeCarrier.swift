/// What carries one exchange once it left its queue: an HTTP/1.1
/// connection (`HTTPClientConnection`) or one stream of an HTTP/2
/// connection (`HTTP2ClientStream`). The exchange reaches it only to give
/// up. Loop thread.
protocol HTTPExchangeCarrier: AnyObject, Sendable {
    /// The caller disposed `exchange` before its response began: an
    /// HTTP/1.1 connection closes (a request cut short cannot be followed
    /// by another), an HTTP/2 stream is reset.
    func abort(_ exchange: HTTPClientExchange)
    /// The exchange's timeout gave up on the response under way: the
    /// body's reader hears `error`; the HTTP/1.1 connection closes, the
    /// HTTP/2 stream is reset.
    func responseFailed(_ error: any Error)
}
