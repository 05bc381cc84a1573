@_spi(Bridge) import RxCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension Reactive where Base == Loop {
    /// Listens for connections on the Unix-domain socket `path` and emits
    /// each accepted connection (`socket`, `bind`, `listen`, made by RxUV,
    /// which accepts with `accept` and opens each connection with
    /// `uv_pipe_open`, as `Server` does).
    ///
    /// `path` is a file-system path, or on Linux an abstract name: a
    /// leading NUL (`"\u{0}name"`), which creates no file. On subscribe, on
    /// the loop thread:
    /// - a path longer than `sun_path` holds fails with `ENAMETOOLONG`
    ///   (libuv would truncate it silently);
    /// - a socket file left by a process that died (a connect to it is
    ///   refused) is removed and replaced; a path where a server answers, or
    ///   a file that is not a socket, fails with `EADDRINUSE` and is left
    ///   alone;
    /// - `mode` (for example `0o600`), when given, is set on the socket
    ///   file after binding and before `listen`, so no client can
    ///   connect with the default mode in between.
    ///
    /// `onListening` receives `path` once listening. Events arrive on the
    /// loop thread. Disposing closes the listener and removes the socket
    /// file (if it is still the one this listener bound); connections already accepted stay open. Accept
    /// failures follow `listen(host:port:backlog:onListening:)`'s rules.
    public func listen(
        unixPath path: String,
        backlog: Int = 4096,
        mode: mode_t? = nil,
        onListening: (@Sendable (String) -> Void)? = nil
    ) -> Observable<UnixConnection> {
        UnixListen(loop: base, source: .path(path, mode: mode), backlog: backlog, onListening: onListening)
    }

    /// Listens on an already open Unix-domain stream socket `descriptor`
    /// (socket activation: a descriptor a service manager passed in, bound
    /// and possibly listening already) and emits each accepted connection
    /// (made non-blocking, then `listen`).
    ///
    /// The subscription takes the descriptor, also when it fails: disposing
    /// closes it, so the Observable can be subscribed to once (a second
    /// subscription, a `retry`, fails with `EBADF`). A descriptor that is not a socket fails with
    /// the error of `listen` (`ENOTSOCK`) or `fcntl` (`EBADF`).
    /// Events arrive on the loop thread.
    public func listen(unixSocket descriptor: Int32, backlog: Int = 4096) -> Observable<UnixConnection> {
        UnixListen(loop: base, source: .descriptor(descriptor), backlog: backlog, onListening: nil)
    }

    /// Connects to the Unix-domain socket `path` (a file-system path, or an
    /// abstract name with a leading NUL) and succeeds with the connection
    /// (`uv_pipe_connect`; for an abstract name, a `connect` RxUV makes and
    /// hands to `uv_pipe_open`).
    ///
    /// Fails with `ENOENT` when no socket is there, `ECONNREFUSED` when
    /// nobody listens, `EACCES` when the mode forbids it, `ENAMETOOLONG` for
    /// a path longer than `sun_path` holds. Disposing while connecting closes
    /// the socket and nothing is emitted. The result arrives on the loop
    /// thread.
    public func connect(unixPath path: String) -> Single<UnixConnection> {
        Single(raw: UnixConnect(loop: base, path: path))
    }
}
