extension PrimitiveSequence {
    /// Prints every event, subscription and disposal, prefixed with
    /// `identifier` (or the call site), and passes the events through.
    /// With `trimOutput` long event descriptions are shortened.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
