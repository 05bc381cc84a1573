/// The disposable that does nothing; an empty struct, so an existential
/// holds it inline, with no allocation.
struct NopDisposable: Disposable {
    func dispose() {}
}
