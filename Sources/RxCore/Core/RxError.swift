/// Errors that RxCore itself produces.
public enum RxError: Swift.Error, CustomDebugStringConvertible, Equatable {
    /// An unknown error.
    case unknown
    /// An operation on a disposed object, such as `BehaviorSubject.value()` after dispose.
    case disposed(object: String)
    /// An arithmetic overflow.
    case overflow
    /// An argument outside its valid range.
    case argumentOutOfRange
    /// A sequence that had to have at least one element was empty.
    case noElements
    /// A sequence that had to have exactly one element had more.
    case moreThanOneElement
    /// A `timeout` operator saw no event in time.
    case timeout

    /// A readable description of the error.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}
