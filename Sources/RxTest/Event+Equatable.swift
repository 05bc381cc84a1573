import RxCore

/// Events are equal when they are the same kind with equal elements; errors
/// are equal when they have the same type and the same description.
extension Event: Equatable where Element: Equatable {
    /// `true` for two completions, two errors of the same type and
    /// description, or two elements that are equal.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsEqual(left, right)
        case (.next(let left), .next(let right)):
            return left == right
        default:
            return false
        }
    }
}

/// Same type and same description: the comparison RxTest uses for errors.
func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    type(of: lhs) == type(of: rhs) && String(reflecting: lhs) == String(reflecting: rhs)
}
