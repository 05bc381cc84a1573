/// Whether and how far an `HTTPClient` follows redirects (`301`, `302`,
/// `303`, `307`, `308` with a `Location`).
public enum HTTPRedirectPolicy: Sendable, Hashable {
    /// Redirect responses are returned as they are.
    case none
    /// Up to `max` redirects are followed (then
    /// `HTTPClientError.redirect`), never to a URL already visited in the
    /// same chain, and from `https` to `http` only when
    /// `allowsInsecure`.
    case follow(max: Int, allowsInsecure: Bool)

    /// Up to five redirects, never from `https` to `http`: what browsers,
    /// URLSession and AsyncHTTPClient do by default.
    public static let `default` = HTTPRedirectPolicy.follow(max: 5, allowsInsecure: false)
}
