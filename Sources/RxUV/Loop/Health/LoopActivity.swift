internal import CLibUV

/// What a loop's thread runs now, as the loop notes it on the way into
/// each callback (`LoopVitals.running`): a handle's callback (by kind), a
/// request's completion (by type), or an item of the loop's work queue (a
/// step, a closure, a job of Swift concurrency). One byte, so noting it is
/// one store; the watchdog reads it when a loop stalls.
package struct LoopActivity: Hashable, Sendable {
    /// 0: nothing noted yet; 1...: a handle kind (its raw value + 1); 64...:
    /// a request type (+ 64); 128...: a queued item.
    package let code: UInt8

    /// Nothing noted yet: the loop has run no callback.
    package static let none = LoopActivity(code: 0)
    /// A step of a loop-confined object, queued through the loop's door.
    package static let step = LoopActivity(code: 128)
    /// A closure queued through the loop's door (`Loop.execute`, a scheduler's work).
    package static let closure = LoopActivity(code: 129)
    /// A job of Swift concurrency (an actor's or a task's) on the loop.
    package static let job = LoopActivity(code: 130)
    /// Waiting for I/O: the loop's heartbeat ran, and no callback since.
    package static let waitingForIO = LoopActivity(code: 131)

    private init(code: UInt8) {
        self.code = code
    }

    /// A callback of a handle of `kind`.
    @inline(__always)
    init(_ kind: UVHandleKind) {
        code = UInt8(truncatingIfNeeded: kind.rawValue &+ 1)
    }

    /// The completion of a request of libuv's `type`.
    @inline(__always)
    init(request type: uv_req_type) {
        code = 64 &+ UInt8(truncatingIfNeeded: type.rawValue)
    }

    /// The activity whose `code` this is (read back by another thread).
    package init(reading code: UInt8) {
        self.code = code
    }

    /// What it is, in words: `a tcp handle's callback`, `a write request's
    /// callback`, `a job of Swift concurrency`.
    package var description: String {
        switch code {
        case 0: return "no callback yet"
        case 1..<64:
            let kind = UVHandleKind(rawValue: Int(code) - 1)
            return "a \(kind?.name ?? "libuv") handle's callback"
        case 64..<128:
            let name = uv_req_type_name(uv_req_type(rawValue: UInt32(code - 64))).map { String(cString: $0) } ?? "libuv"
            return "a \(name) request's callback"
        case Self.step.code: return "a step queued to the loop"
        case Self.closure.code: return "a closure queued to the loop"
        case Self.job.code: return "a job of Swift concurrency"
        case Self.waitingForIO.code: return "nothing: waiting for I/O"
        default: return "an unknown activity"
        }
    }
}
