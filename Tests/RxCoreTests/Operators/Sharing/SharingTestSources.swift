import RxCore
import RxTest

/// An observable that subscribes `sources[0]` on the first subscription,
/// `sources[1]` on the second, and the last one from then on.
func switchingSource(_ sources: [TestableObservable<Int>]) -> Observable<Int> {
    var attempt = 0
    return Observable.create { observer in
        let source = sources[min(attempt, sources.count - 1)]
        attempt += 1
        return source.subscribe(observer)
    }
}
