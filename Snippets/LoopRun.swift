// One loop, one thread: events arrive on the thread that runs the loop, and
// `run()` returns when nothing is left to do.

import RxCore
import RxUV

let loop = try Loop() // until run() is called, the creating thread counts as the loop thread
let bag = DisposeBag()

// A bridge Observable: each subscription owns one uv_timer_t.
loop.rx.timer(after: .milliseconds(100), repeating: .milliseconds(100))
    .take(3)
    .subscribe(onNext: { tick in
        print("tick \(tick); on the loop thread: \(loop.isOnLoopThread)") // true
    })
    .disposed(by: bag)

// RxCore's time operators with the loop as their scheduler run on libuv timers too.
Observable<Int>.interval(.milliseconds(150), scheduler: loop)
    .map { $0 * 10 }
    .take(2)
    .subscribe(
        onNext: { print("interval \($0)") },
        onCompleted: { print("interval done") }
    )
    .disposed(by: bag)

loop.run() // returns once both timers are closed: nothing is active
try loop.close() // no handle is open, so the loop closes
