// RxSwift 6 code compiles against RxCore with only the import changed.

import RxCore // was: import RxSwift, import RxRelay

let disposeBag = DisposeBag()
let query = BehaviorRelay(value: "")
let results = PublishSubject<[String]>()

query
    .map { $0.lowercased() }
    .distinctUntilChanged()
    .filter { !$0.isEmpty }
    .subscribe(onNext: { print("searching for \($0)") })
    .disposed(by: disposeBag)

Observable.combineLatest(query, results) { text, found in "\(text): \(found.count) results" }
    .subscribe(onNext: { print($0) })
    .disposed(by: disposeBag)

query.accept("Rx") // searching for rx
results.onNext(["RxSwift", "RxCore"]) // Rx: 2 results

// RxTimeInterval keeps DispatchTimeInterval's case names, without Foundation or
// Dispatch; intervals are equal when they are equally long.
let pause: RxTimeInterval = .milliseconds(300)
precondition(pause == .nanoseconds(300_000_000))
precondition(RxTimeInterval(.milliseconds(300)) == pause) // from a Duration
precondition(pause.duration == .milliseconds(300)) // and back

// RxObservable is Observable, under a name that Apple's Observation module does not use.
let numbers: RxObservable<Int> = Observable.of(1, 2, 3)
numbers
    .reduce(0, accumulator: +)
    .subscribe(onNext: { print("sum \($0)") }) // sum 6
    .disposed(by: disposeBag)
