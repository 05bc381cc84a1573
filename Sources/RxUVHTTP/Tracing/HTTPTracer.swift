import Tracing

/// The tracer HTTP traffic is traced with when no other is given: the one
/// bootstrapped (`InstrumentationSystem.bootstrap`) when the server's
/// options or the client's configuration are made, or `nil` when none is
/// (swift-distributed-tracing's `NoOpTracer`), so that an untraced server
/// asks nothing per request but whether it has a tracer.
package enum HTTPTracer {
    /// The bootstrapped tracer, or `nil` when none is.
    package static var bootstrapped: (any Tracer)? {
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }
}
