#if RX_TSAN
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A drop-in `Synchronization.Mutex` built on `pthread_mutex_t`, compiled
/// only into ThreadSanitizer builds (`-DRX_TSAN`, passed by
/// `make sanitize-thread`); normal builds use `Synchronization.Mutex`.
///
/// Why: on Linux `Synchronization.Mutex` is a futex driven by atomics and
/// raw `futex` syscalls, and ThreadSanitizer (Swift 6.3.1) does not see the
/// happens-before edge its unlock/lock pair creates, so every access to
/// state guarded by it is reported as a data race
/// (`scripts/tsan-mutex-repro.swift` shows it). TSan intercepts
/// `pthread_mutex_lock`/`unlock`, so with this type it checks the same
/// critical sections for real.
///
/// Each module that uses `Mutex` declares `typealias Mutex = SanitizerMutex`
/// in a TSan build (this file for RxCore); a declaration in the module itself
/// shadows the imported `Synchronization.Mutex`, so the files that write
/// `Mutex(...)` stay unchanged. (A declaration in an imported module would
/// not shadow it: the name would be ambiguous.) Only the API subset the
/// package uses is provided: `init(_:)` and `withLock(_:)`.
@usableFromInline
package struct SanitizerMutex<Value: ~Copyable>: ~Copyable {
    private let storage: SanitizerMutexStorage<Value>

    /// A mutex holding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        storage = SanitizerMutexStorage(initialValue)
    }

    /// Runs `body` with exclusive access to the value, under the lock.
    @usableFromInline
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value)
    }
}

// @unchecked Sendable: the value is reached only through `withLock`, under
// the pthread mutex, as `Synchronization.Mutex` is Sendable.
extension SanitizerMutex: @unchecked Sendable where Value: ~Copyable {}

/// RxCore's `Mutex` in a TSan build (see `SanitizerMutex`).
@usableFromInline
typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>

/// The heap cell of a `SanitizerMutex`: the `pthread_mutex_t` at a stable
/// address, and the value it guards.
package final class SanitizerMutexStorage<Value: ~Copyable> {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    var value: Value

    init(_ value: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
}
#endif
