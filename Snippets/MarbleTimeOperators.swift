// Cold observables, custom start times, errors, and time operators run on
// the TestScheduler's virtual clock.

import RxCore
import RxTest

enum Failure: Error {
    case boom
}

// A cold observable replays its events to each subscriber, relative to the subscription.
do {
    let scheduler = TestScheduler(initialClock: 0)
    let ys = scheduler.createColdObservable([
        .next(10, "a"),
        .next(300, "b"),
        .error(400, Failure.boom),
    ])
    let res = scheduler.start(created: 50, subscribed: 150, disposed: 400) { ys.asObservable() }

    precondition(res.events == [.next(160, "a")]) // "b" would come at 450: disposed before
    precondition(ys.subscriptions == [Subscription(150, 400)])
}

// An error is recorded like any event; errors are equal when type and description are.
do {
    let scheduler = TestScheduler(initialClock: 0)
    let zs = scheduler.createHotObservable([
        .next(210, 1),
        .error(250, Failure.boom),
    ])
    let res = scheduler.start { zs.map { $0 + 1 } }

    precondition(res.events == [.next(210, 2), .error(250, Failure.boom)])
    precondition(zs.subscriptions == [Subscription(200, 250)])
}

// Time operators take the TestScheduler: with the default resolution, a second is a tick.
do {
    let scheduler = TestScheduler(initialClock: 0)
    let taps = scheduler.createHotObservable([
        .next(210, 1),
        .next(212, 2),
        .next(230, 3),
        .next(236, 4),
        .completed(300),
    ])
    let res = scheduler.start {
        taps.throttle(.seconds(20), latest: false, scheduler: scheduler) // one tap per 20 ticks
    }

    print(res.events) // [next(1) @ 210, next(3) @ 230, completed @ 300]
    precondition(res.events == [.next(210, 1), .next(230, 3), .completed(300)])
}

// A finer clock: with a resolution of 0.001, a tick is a millisecond.
do {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let clicks = scheduler.createHotObservable([
        .next(300, "a"),
        .next(650, "b"),
        .next(800, "c"),
    ])
    let res = scheduler.start { clicks.take(for: .milliseconds(500), scheduler: scheduler) }

    precondition(res.events == [.next(300, "a"), .next(650, "b"), .completed(700)])
    precondition(clicks.subscriptions == [Subscription(200, 700)])
}

// Driving the clock by hand: an observer, actions at given ticks, advanceTo and start.
do {
    let scheduler = TestScheduler(initialClock: 0)
    let subject = PublishSubject<Int>()
    let observer = scheduler.createObserver(Int.self)

    scheduler.scheduleAt(100) { _ = subject.subscribe(observer) }
    scheduler.scheduleAt(110) { subject.onNext(1) }
    scheduler.scheduleAt(120) { subject.onCompleted() }

    scheduler.advanceTo(115) // runs what is due up to 115
    precondition(observer.events == [.next(110, 1)])
    scheduler.start() // runs the rest
    precondition(observer.events == [.next(110, 1), .completed(120)])
}
