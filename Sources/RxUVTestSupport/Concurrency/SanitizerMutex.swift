#if RX_TSAN
import RxCore

/// This module's `Mutex` in a ThreadSanitizer build (`-DRX_TSAN`, passed by
/// `make sanitize-thread`): RxCore's `pthread_mutex_t`-based
/// `SanitizerMutex`, which TSan models, instead of `Synchronization.Mutex`,
/// a futex TSan does not see. Declared here so it shadows the imported one
/// (each test target that uses `Mutex` has the same line).
typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>
#endif
