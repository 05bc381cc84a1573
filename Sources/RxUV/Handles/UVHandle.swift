internal import CLibUV
import RxCore

/// The one implementation of the handle lifetime rule.
///
/// A handle lives from its `uv_*_init` until its close callback. This object
/// owns the raw memory of the `uv_*_t`; right after a successful init it
/// retains itself into `handle->data` (so libuv can never call back into a
/// freed object) and it releases that reference only in the close callback.
/// `close()` runs `uv_close` exactly once. The raw memory is freed when the
/// object is deallocated, which cannot happen before the close callback.
/// If init fails there is nothing to close and the error is thrown.
///
/// Every method must run on the loop thread (debug builds check it in
/// `adopt` and `close`). Its owner holds it in an `Owned`, whose drop
/// closes it on the loop thread from wherever it happens. Timer, signal,
/// the streams and the loop's own wake-up handle build on it.
class UVHandle: UVResource, @unchecked Sendable {
    /// The memory of the `uv_*_t`.
    let pointer: UnsafeMutableRawPointer
    /// What kind of handle this is, for diagnostics and the loop's counts.
    let kind: UVHandleKind
    /// A handle of the loop's own (its wake-up handle).
    var isLoopInternal: Bool {
        retainedLoop == nil
    }
    /// True between a successful init and the start of `close()`.
    private(set) var isOpen = false
    /// True once `close()` has called `uv_close`.
    private(set) var isClosing = false
    /// Runs once the handle has closed (the close callback): what outlives
    /// the handle is put back, such as a shared descriptor's flags
    /// (`SharedDescriptorFlags`). Loop thread.
    var afterClose: (() -> Void)?

    /// Allocates memory for a handle of `type`. `isLoopInternal` marks the
    /// loop's own handles: they neither keep the loop alive nor count as open.
    init(loop: Loop, type: uv_handle_type, kind: UVHandleKind, isLoopInternal: Bool = false) {
        self.kind = kind
        self.pointer = UnsafeMutableRawPointer.allocate(byteCount: uv_handle_size(type), alignment: MemoryLayout<uv_any_handle>.alignment)
        super.init(loop: loop, retainsLoop: !isLoopInternal)
        #if TRACE_RESOURCES
        _ = Resources.incrementTotal()
        #endif
    }

    /// The memory as a `uv_handle_t`.
    var handle: UnsafeMutablePointer<uv_handle_t> {
        pointer.assumingMemoryBound(to: uv_handle_t.self)
    }

    /// The handle's descriptor (`uv_fileno`), while open.
    var descriptor: Int32? {
        guard isOpen else { return nil }
        var descriptor: uv_os_fd_t = -1
        return uv_fileno(handle, &descriptor) == 0 ? descriptor : nil
    }

    /// Runs this handle's `uv_*_init` (`initialize`, through `uvCall`): on
    /// success the handle retains itself into `handle->data` and is counted
    /// open by the loop; on failure nothing needs closing and the error is
    /// thrown.
    func adopt(_ operation: StaticString, initialize: () -> Int32) throws(UVError) {
        try uvCall(operation, initialize)
        becomeOpen()
    }

    /// Retains the handle into `handle->data` and counts it open: right
    /// after its init.
    private func becomeOpen() {
        if !isLoopInternal {
            assertConfined()
        }
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        isOpen = true
        if retainedLoop != nil {
            loop.handleOpened(kind: kind)
        }
    }

    /// Runs a call that initialises the handle and starts it in one step
    /// (`uv_spawn`), which leaves the handle initialised even when it fails:
    /// the handle is adopted either way, and on failure closed before the
    /// error is thrown, unless libuv left it active (a child started, then
    /// a later step failed): then it stays open and the caller decides.
    func adoptStarting(_ operation: StaticString, address: @autoclosure () -> String?, start: () -> Int32) throws(UVError) {
        var failure: UVError?
        var didStart = false
        do throws(UVError) {
            try uvCall(operation, address: address()) {
                didStart = true
                return start()
            }
        } catch {
            failure = error
        }
        // A forced fault (debug builds) skipped the call: nothing to close.
        if let failure, !didStart {
            throw failure
        }
        becomeOpen()
        if let failure {
            if uv_is_active(handle) == 0 {
                close()
            }
            throw failure
        }
    }

    /// Closes the handle: what a subscription that owns it does on dispose.
    override func release() {
        close()
    }

    /// Closes the handle (`uv_close`) unless it is closed or closing already.
    /// Safe from inside the handle's own callbacks. Loop thread only.
    func close() {
        close { uv_close($0, $1) }
    }

    /// Closes the handle with `closer`, a libuv close function that takes the
    /// handle and the close callback (`uv_close`, or `uv_tcp_close_reset`
    /// through a cast), unless closed or closing already. Loop thread only.
    func close(with closer: (UnsafeMutablePointer<uv_handle_t>, uv_close_cb) -> Void) {
        if !isLoopInternal {
            assertConfined()
        }
        guard isOpen, !isClosing else { return }
        isClosing = true
        isOpen = false
        closer(handle, uvHandleDidClose)
    }

    /// Called by the close callback.
    fileprivate func didClose() {
        if retainedLoop != nil {
            loop.handleClosed(kind: kind)
        }
        let after = afterClose
        afterClose = nil
        after?()
        releaseCallbacks()
    }

    /// Runs in the close callback, just before the handle's reference to
    /// itself is released: subclasses drop their callbacks here, which
    /// breaks any cycle through them. Loop thread.
    func releaseCallbacks() {}

    /// Calls `body` with the Swift owner of a handle that libuv passes to a
    /// callback, borrowed: the reference in `handle->data` keeps it alive
    /// until the close callback, so the call takes no reference of its own.
    /// The one way into a handle's callback, so it is where the loop notes
    /// what it runs (`LoopVitals.running`) for the watchdog's reports.
    static func withOwner<Handle: UVHandle, Result>(
        of handle: UnsafeMutableRawPointer?, as type: Handle.Type, _ body: (Handle) -> Result
    ) -> Result {
        let data = handle!.assumingMemoryBound(to: uv_handle_t.self).pointee.data!
        return Unmanaged<UVHandle>.fromOpaque(data)._withUnsafeGuaranteedRef { owner in
            owner.loop.vitals.running(LoopActivity(owner.kind))
            return body(unsafeDowncast(owner, to: Handle.self))
        }
    }

    deinit {
        pointer.deallocate()
        #if TRACE_RESOURCES
        _ = Resources.decrementTotal()
        #endif
    }
}

/// The kinds of handle RxUV opens, as the loop counts them.
enum UVHandleKind: Int, CaseIterable {
    case async, fsEvent, fsPoll, idle, pipe, poll, prepare, process, signal, tcp, timer, tty, udp

    /// The name `Loop.close` uses: `timer`, `tcp`...
    var name: String {
        switch self {
        case .async: "async"
        case .fsEvent: "fs_event"
        case .fsPoll: "fs_poll"
        case .idle: "idle"
        case .process: "process"
        case .pipe: "pipe"
        case .poll: "poll"
        case .prepare: "prepare"
        case .signal: "signal"
        case .tcp: "tcp"
        case .timer: "timer"
        case .tty: "tty"
        case .udp: "udp"
        }
    }
}

/// The close callback of every handle: the last call libuv makes for it.
private func uvHandleDidClose(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let data = handle.pointee.data else { return }
    handle.pointee.data = nil
    let owner = Unmanaged<UVHandle>.fromOpaque(data).takeRetainedValue()
    owner.didClose()
}
