import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleBindTests: RxCoreTestCase {
    func testBind_ToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int?.self)
        var bindings: [Disposable] = []
        scheduler.scheduleAt(200) {
            let infallible = xs.asInfallible(onErrorJustReturn: 0)
            bindings.append(infallible.bind(to: first, first))
            bindings.append(infallible.bind(to: second))
        }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(210, 1), .completed(230), .completed(230)])
        XCTAssertEqual(second.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(200, 230)])
    }

    func testBind_DisposeEndsBinding() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        let binding = subject.asInfallible(onErrorJustReturn: 0).bind(onNext: { values.append($0) })
        subject.onNext(1)
        binding.dispose()
        subject.onNext(2)
        XCTAssertEqual(values, [1])
    }

    func testBind_ToRelays() {
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        let behavior = BehaviorRelay<Int>(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.create(bufferSize: 2)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
        var published: [Int] = []
        var optionalPublished: [Int?] = []
        let watchers = [
            publish.subscribe(onNext: { published.append($0) }),
            optionalPublish.subscribe(onNext: { optionalPublished.append($0) }),
        ]
        let source = Infallible.from([1, 2])
        _ = source.bind(to: publish)
        _ = source.bind(to: optionalPublish)
        _ = source.bind(to: behavior)
        _ = source.bind(to: optionalBehavior)
        _ = source.bind(to: replay)
        _ = source.bind(to: optionalReplay)
        var replayed: [Int] = []
        var optionalReplayed: [Int?] = []
        replay.subscribe(onNext: { replayed.append($0) }).dispose()
        optionalReplay.subscribe(onNext: { optionalReplayed.append($0) }).dispose()
        watchers.forEach { $0.dispose() }
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(optionalPublished, [1, 2])
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(optionalBehavior.value, 2)
        XCTAssertEqual(replayed, [1, 2])
        XCTAssertEqual(optionalReplayed, [2])
    }

    func testBind_WithObjectAndBinderFunctions() {
        final class Owner {
            var values: [Int] = []
        }
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        let subject = PublishSubject<Int>()
        let binding = subject.asInfallible(onErrorJustReturn: 0).bind(with: owner!) { $0.values.append($1) }
        subject.onNext(1)
        XCTAssertEqual(owner?.values, [1])
        owner = nil
        XCTAssertNil(weakOwner)
        subject.onNext(2)
        binding.dispose()

        let count = Infallible.from([1, 2, 3]).bind(to: { (source: Infallible<Int>) -> Int in
            var count = 0
            _ = source.subscribe(onNext: { _ in count += 1 })
            return count
        })
        XCTAssertEqual(count, 3)
        let scaled = Infallible.just(4).bind(
            to: { (source: Infallible<Int>) in
                { (factor: Int) -> Int in
                    var result = 0
                    _ = source.subscribe(onNext: { result = $0 * factor })
                    return result
                }
            }, curriedArgument: 10)
        XCTAssertEqual(scaled, 40)
    }
}
