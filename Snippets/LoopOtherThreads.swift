// Other threads talk to a loop through `execute`, dispose from anywhere,
// and bring results back to the loop thread with `observe(on: loop)`.

import RxCore
import RxUV

let loop = try Loop()
let bag = DisposeBag()

// Bridge events arrive on the loop thread.
let heartbeat = loop.rx.timer(after: .milliseconds(100), repeating: .milliseconds(100))
    .subscribe(onNext: { tick in
        print("tick \(tick); on the loop thread: \(loop.isOnLoopThread)") // true
    })

// A task on Swift's cooperative pool: another thread.
Task.detached { [loop, heartbeat] in
    try? await Task.sleep(for: .milliseconds(350))
    print("task; on the loop thread: \(loop.isOnLoopThread)") // false
    loop.execute {
        print("execute; on the loop thread: \(loop.isOnLoopThread)") // true
    }
    heartbeat.dispose() // safe from here: the timer is closed on the loop thread
}

// Work that finishes on another thread, delivered on the loop thread.
Single<Int>.create(work: { (1...1_000).reduce(0, +) }) // runs in a Task
    .observe(on: loop) // hop to the loop thread
    .timeout(.seconds(5), scheduler: loop) // a loop timer: run() waits for the result
    .subscribe(onSuccess: { sum in
        print("sum \(sum); on the loop thread: \(loop.isOnLoopThread)") // true
    })
    .disposed(by: bag)

loop.run()
try loop.close()
