#if RX_TSAN
import RxCore

// Under ThreadSanitizer (`make sanitize-thread`), the locks are RxCore's
// pthread-based ones, which TSan sees, as in RxCore itself.
typealias Mutex<Value: ~Copyable> = SanitizerMutex<Value>
#endif
