import RxCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// RxCore's live-object counter (`Resources.total`) as a leak gate sees
/// it: a count taken now, and later the question whether the counter is
/// back there. Every leak gate of the suites (`RxCoreTestCase`,
/// `BridgeTestCase`, the fuzz suites' `withLeakGate`) asks it.
///
/// Debug builds only count (`-DTRACE_RESOURCES`, Package.swift's
/// `traceResources`); in a release build the count is always 0 and the gate
/// always passes.
public struct LiveObjectCount: Sendable, Equatable, CustomStringConvertible {
    /// The counter's value when this was taken.
    public let value: Int32

    /// The counter now (0 in a release build).
    public static var now: LiveObjectCount {
        #if TRACE_RESOURCES
        LiveObjectCount(value: Resources.total)
        #else
        LiveObjectCount(value: 0)
        #endif
    }

    /// Whether the count is taken at all: `false` in a release build.
    public static var isCounting: Bool {
        #if TRACE_RESOURCES
        true
        #else
        false
        #endif
    }

    /// The counter once it is back at `self`, or after `timeout` seconds of
    /// waiting for objects released on other threads (polled every 10 ms):
    /// equal to `self` when nothing leaked.
    public func settled(timeout: Double = 1) -> LiveObjectCount {
        var waited = 0.0
        while Self.now != self && waited < timeout {
            usleep(10_000)
            waited += 0.01
        }
        return Self.now
    }

    /// What a leak gate says when the counter is not back at `self` after
    /// `timeout` seconds (`"Resources.total is 12, was 10 before the test"`,
    /// `when` naming the moment the count was taken), or `nil` when it is.
    public func leakReport(timeout: Double = 1, since when: String = "before the test") -> String? {
        let settled = settled(timeout: timeout)
        return settled == self ? nil : "Resources.total is \(settled.value), was \(value) \(when)"
    }

    /// The counter's value.
    public var description: String {
        "\(value)"
    }
}
