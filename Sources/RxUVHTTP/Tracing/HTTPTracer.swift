import Tracing

/// A tracer, held by reference: what a server's options and a client's
/// configuration keep (`HTTPServerOptions.tracer`,
/// `HTTPClientConfiguration.tracer`), so that asking per request whether
/// there is one reads a reference, not an optional existential.
package final class HTTPTracer: Sendable {
    /// The tracer.
    package let tracer: any Tracer

    package init(_ tracer: any Tracer) {
        self.tracer = tracer
    }

    /// The tracer bootstrapped with `InstrumentationSystem.bootstrap`, or
    /// `nil` when none is (swift-distributed-tracing's `NoOpTracer`): the
    /// default of servers and clients, so that nothing is traced, and
    /// nothing spent, unless a program bootstraps a tracer.
    package static var bootstrapped: HTTPTracer? {
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : HTTPTracer(tracer)
    }
}
