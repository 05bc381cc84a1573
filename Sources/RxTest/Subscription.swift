/// The ticks at which a subscription started and ended; `Int.max` means it never ended.
public struct Subscription: Equatable, Hashable, CustomDebugStringConvertible {
    /// The tick of the subscribe.
    public let subscribe: TestTime
    /// The tick of the dispose, or `Int.max`.
    public let unsubscribe: TestTime

    /// A subscription that started at `subscribe` and never ended.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(200, 1000)`, or `(200, Infinity)` for a subscription that never ended.
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : "\(unsubscribe)"
        return "(\(subscribe), \(end))"
    }
}
