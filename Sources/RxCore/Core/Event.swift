/// A sequence event: one element, or the terminal error or completion.
///
/// The grammar of a sequence is `next* (error | completed)?`: any number of
/// `.next` events, followed by at most one terminal event. After a terminal
/// event an observer receives nothing more.
@frozen
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence failed with `error`; no further events follow.
    case error(Swift.Error)
    /// The sequence finished successfully; no further events follow.
    case completed
}

extension Event: CustomDebugStringConvertible {
    /// A description such as `next(1)`, `error(reason)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event {
    /// `true` for `.error` and `.completed`.
    @inlinable
    public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element of a `.next` event, otherwise `nil`.
    @inlinable
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `.error` event, otherwise `nil`.
    @inlinable
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` for `.completed` only.
    @inlinable
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `.next` event; a throwing transform turns
    /// the event into `.error`. Terminal events pass through unchanged.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }
}

/// A value that can be turned into an `Event`, used by `dematerialize()`.
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event this value represents.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}

/// An event is `Sendable` when its element is.
extension Event: Sendable where Element: Sendable {}
