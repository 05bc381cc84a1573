extension PrimitiveSequence {
    /// A sequence that creates a resource for each subscriber and keeps it
    /// for as long as the subscription lives.
    ///
    /// On subscribe `resourceFactory` creates the resource and
    /// `primitiveSequenceFactory` makes the sequence to run from it. When the
    /// subscription ends (outcome or dispose) that sequence is disposed, then
    /// the resource. If a factory throws, the error is emitted.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(
            raw: Observable.using(resourceFactory) { resource in
                try primitiveSequenceFactory(resource).source
            })
    }
}
