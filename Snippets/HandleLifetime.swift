// A handle lives from uv_*_init to its close callback; dispose() starts the
// close, and it is safe twice, from the handle's own callback and from
// another thread.

import RxCore
import RxUV

let loop = try Loop()

// Subscribing runs uv_timer_init: from now on the handle is open.
let idle = loop.rx.timer(after: .seconds(60)).subscribe(onNext: { _ in print("never printed") })
print("after subscribe: \(loop.openHandleCount) open") // 1

// dispose() calls uv_close; the handle stays open until its close callback.
idle.dispose()
idle.dispose() // the second dispose does nothing
print("after dispose: \(loop.openHandleCount) open") // still 1

// Disposing from inside the handle's own callback.
let ticks = SingleAssignmentDisposable()
ticks.setDisposable(
    loop.rx.timer(after: .milliseconds(5), repeating: .milliseconds(5))
        .subscribe(onNext: { tick in
            print("tick \(tick)")
            if tick == 2 {
                ticks.dispose() // closes the timer that is calling us
            }
        })
)

// Disposing from another thread: the close hops to the loop thread.
let heartbeat = loop.rx.timer(after: .milliseconds(5), repeating: .milliseconds(5)).subscribe()
Task.detached { [heartbeat] in
    try? await Task.sleep(for: .milliseconds(50))
    heartbeat.dispose()
}

loop.run() // runs the close callbacks; returns when nothing is active
print("after run: \(loop.openHandleCount) open") // 0
try loop.close()
