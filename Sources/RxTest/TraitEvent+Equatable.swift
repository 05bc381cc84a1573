import RxCore

/// Maybe events are equal when they are the same kind with equal elements;
/// errors compare as `Event`'s do (same type, same description).
extension MaybeEvent: Equatable where Element: Equatable {
    /// `true` for two successes with equal elements, two completions, or two
    /// errors of the same type and description.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)):
            return left == right
        case (.error(let left), .error(let right)):
            return errorsEqual(left, right)
        case (.completed, .completed):
            return true
        default:
            return false
        }
    }
}

/// Completable events are equal when they are both completions, or errors
/// of the same type and description.
extension CompletableEvent: Equatable {
    /// `true` for two completions, or two errors of the same type and
    /// description.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsEqual(left, right)
        default:
            return false
        }
    }
}

/// Single events (`Result`s) are equal when both succeeded with equal
/// elements, or both failed with errors of the same type and description.
func singleEventsEqual<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)):
        return left == right
    case (.failure(let left), .failure(let right)):
        return errorsEqual(left, right)
    default:
        return false
    }
}
