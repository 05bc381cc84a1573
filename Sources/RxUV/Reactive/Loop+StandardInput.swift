import RxCore

extension Reactive where Base == Loop {
    /// The bytes of the process's standard input, one `ByteBuffer` per read,
    /// whatever descriptor 0 is: a terminal (`uv_tty_t`), a pipe or FIFO
    /// (reopened, so the shared descriptor's flags are left alone), a socket,
    /// or a regular file (read on libuv's thread pool with `uv_fs_read`,
    /// since epoll cannot watch files). Chain `lines(maxLength:)` for lines.
    ///
    /// Completes at the end of input; errors with the read's `UVError`.
    /// Events arrive on the loop thread. Disposing stops reading and
    /// closes what RxUV opened (never descriptor 0 itself). One subscriber
    /// at a time makes sense: two would split the input between them.
    public var stdin: Observable<ByteBuffer> {
        StandardInput(loop: base)
    }
}
