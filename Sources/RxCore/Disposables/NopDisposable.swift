/// The disposable that does nothing; shared, allocation-free.
struct NopDisposable: Disposable {
    static let noOp: Disposable = NopDisposable()

    func dispose() {}
}
