/// A mutable value shared with closures that the compiler treats as
/// concurrent, with no lock: for a test that touches it from the loop
/// thread only, or after a join. `Shared` is the locked alternative.
public final class Box<Value>: @unchecked Sendable {
    // @unchecked Sendable: unchecked by design; the rule above is the
    // test's to keep.

    /// The value.
    public var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }
}
