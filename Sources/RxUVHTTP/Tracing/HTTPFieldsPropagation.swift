import HTTPTypes
import Tracing

/// Reads a trace's context out of a request's header fields, for a
/// tracer's `extract` (W3C `traceparent` and `tracestate`, or whatever
/// fields the bootstrapped instrument propagates by): the field's value,
/// repeated fields joined with `, ` (RFC 9110 §5.3, which is how
/// `tracestate` may arrive split). A name that is not a valid field name
/// reads as absent.
public struct HTTPFieldsExtractor: Extractor {
    /// An extractor.
    public init() {}

    /// The value of the field `key` in `carrier`, or `nil`.
    public func extract(key: String, from carrier: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return carrier[name]
    }
}

/// Writes a trace's context into a request's header fields, for a
/// tracer's `inject`: each value replaces the fields of its name. A name
/// that is not a valid field name is not written.
public struct HTTPFieldsInjector: Injector {
    /// An injector.
    public init() {}

    /// Sets the field `key` of `carrier` to `value`.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
