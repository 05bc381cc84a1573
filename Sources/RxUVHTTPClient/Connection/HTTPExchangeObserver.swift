/// Who hears how an exchange began (`HTTPClientExchange`): its response's
/// head, or the failure before it; once, on the exchange's loop thread.
/// `HTTPSend`'s sink is the one: the exchange holds it as it is, with no
/// closure made around it.
protocol HTTPExchangeObserver: AnyObject, Sendable {
    /// The response's head arrived: the exchange's outcome.
    func exchangeResponded(_ response: HTTPClientResponse)
    /// The exchange failed before its response's head.
    func exchangeFailed(_ error: any Error)
}
