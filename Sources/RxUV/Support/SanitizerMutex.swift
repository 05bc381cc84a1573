#if RX_TSAN
import RxCore

/// RxUV's `Mutex` in a ThreadSanitizer build (`-DRX_TSAN`, passed by
/// `make sanitize-thread`): the `pthread_mutex_t`-based `SanitizerMutex` of
/// RxCore, which TSan models, instead of `Synchronization.Mutex`, a futex
/// TSan does not see (see `SanitizerMutex` in RxCore). Declared here so it
/// shadows the imported `Synchronization.Mutex` in this module.
typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>
#endif
