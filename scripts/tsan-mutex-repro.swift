// Shows that ThreadSanitizer (Swift 6.3.1, Linux) does not see the ordering
// that Synchronization.Mutex provides: two threads increment a counter only
// inside `withLock`, the totals come out exact, and TSan still reports a race;
// the same loop under a pthread mutex is clean. See RELIABILITY.md.
//
//   swiftc -sanitize=thread -g scripts/tsan-mutex-repro.swift -o /tmp/tsan-mutex-repro
//   /tmp/tsan-mutex-repro mutex     # state inside the Mutex: reported
//   /tmp/tsan-mutex-repro guarded   # state beside it, touched under withLock: reported
//   /tmp/tsan-mutex-repro pthread   # the same under pthread_mutex_t: clean
import Synchronization
import Glibc

final class Box: @unchecked Sendable { var value = 0 }
let mode = CommandLine.arguments.dropFirst().first ?? "mutex"
let mutex = Mutex(0)            // state inside the Mutex
let box = Box()                 // state guarded by the Mutex (like our sinks' fields)
var plain = pthread_mutex_t()
pthread_mutex_init(&plain, nil)

func work() {
    for _ in 0..<100_000 {
        if mode == "mutex" {
            mutex.withLock { $0 += 1 }
        } else if mode == "guarded" {
            mutex.withLock { _ in box.value += 1 }
        } else {
            pthread_mutex_lock(&plain); box.value += 1; pthread_mutex_unlock(&plain)
        }
    }
}
var threads: [pthread_t] = []
for _ in 0..<2 {
    var thread = pthread_t()
    pthread_create(&thread, nil, { _ in work(); return nil }, nil)
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print(mode, mutex.withLock { $0 }, box.value)
