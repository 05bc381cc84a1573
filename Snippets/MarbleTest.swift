// A marble test: a hot observable, the 100 / 200 / 1000 convention, and the
// recorded timeline compared with the expected one.

import RxCore
import RxTest

let scheduler = TestScheduler(initialClock: 0)

// A hot observable emits at absolute ticks, to whoever is subscribed then.
let xs = scheduler.createHotObservable([
    .next(150, 1), // before the subscription at 200: nobody sees it
    .next(210, 2),
    .next(240, 3),
    .completed(300),
])

// Created at 100, subscribed at 200, disposed at 1000 (unless it ended before).
let res = scheduler.start { xs.map { $0 * 10 } }

print(res.events) // [next(20) @ 210, next(30) @ 240, completed @ 300]
print(xs.subscriptions) // [(200, 300)]

precondition(res.events == [.next(210, 20), .next(240, 30), .completed(300)])
precondition(xs.subscriptions == [Subscription(200, 300)])
