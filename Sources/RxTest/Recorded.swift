import RxCore

/// A value recorded at a virtual tick: `.next(210, 2)`, `.completed(300)`.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// The tick.
    public let time: TestTime
    /// The value, usually an `Event`.
    public let value: Value

    /// Records `value` at `time`.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// `.next(element)` at `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// `.completed` at `time`.
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// `.error(error)` at `time`.
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }

    /// The listed events as an array.
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }

    /// The events as an array.
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}
