/// What a handle-owning subscription owns: a handle (`UVHandle`), which
/// `release()` closes, or a request libuv can cancel (`UVRequest`), which
/// `release()` cancels. One slot holds either, since a subscription owns one
/// at a time (a lookup, then the socket it leads to).
class UVResource {
    /// Closes the handle or cancels the request. Loop thread.
    func release() {}
}
