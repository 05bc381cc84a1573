internal import CLibUV

/// A `uv_tty_t`: a terminal as a stream. libuv reopens the terminal by its
/// path when it can, so the descriptor's flags (shared with other
/// processes) are left as they were; it never closes descriptors 0 to 2.
final class UVTTY: UVStream, @unchecked Sendable {
    /// A terminal handle on `descriptor` (`uv_tty_init`).
    init(loop: Loop, descriptor: Int32) throws(UVError) {
        super.init(loop: loop, type: UV_TTY, kind: .tty)
        try adopt("uv_tty_init") { uv_tty_init(loop.raw, tty, descriptor, 0) }
    }

    var tty: UnsafeMutablePointer<uv_tty_t> {
        pointer.assumingMemoryBound(to: uv_tty_t.self)
    }

    /// Whether this handle put the terminal into raw mode (and has not put
    /// it back).
    private var isRaw = false

    /// Sets raw (`true`) or normal mode (`uv_tty_set_mode`).
    func setRawMode(_ raw: Bool) throws(UVError) {
        try uvCall("uv_tty_set_mode") { uv_tty_set_mode(tty, raw ? UV_TTY_MODE_RAW : UV_TTY_MODE_NORMAL) }
        isRaw = raw
    }

    /// The window size in columns and rows (`uv_tty_get_winsize`).
    func windowSize() throws(UVError) -> (columns: Int, rows: Int) {
        var columns: Int32 = 0
        var rows: Int32 = 0
        try uvCall("uv_tty_get_winsize") { uv_tty_get_winsize(tty, &columns, &rows) }
        return (Int(columns), Int(rows))
    }

    /// Puts the terminal back into normal mode if this handle made it raw
    /// (libuv 1.44 does not on close), then closes the handle with
    /// `closer`, once. A handle that did not change the mode leaves it as it
    /// is: another handle's raw mode stays.
    override func close(with closer: (UnsafeMutablePointer<uv_handle_t>, uv_close_cb) -> Void) {
        if isOpen, isRaw {
            isRaw = false
            _ = uv_tty_set_mode(tty, UV_TTY_MODE_NORMAL)
        }
        super.close(with: closer)
    }
}
