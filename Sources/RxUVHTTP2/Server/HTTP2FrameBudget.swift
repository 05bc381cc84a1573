/// A token bucket: `burst` tokens at first, `perSecond` more each second up
/// to `burst`; each frame takes one. What bounds the frames a peer may send
/// that cost it nothing and the server an answer (PING, SETTINGS).
struct HTTP2FrameBudget {
    private let burst: Double
    private let perNanosecond: Double
    private var tokens: Double
    private var refilledAt: Int64

    init(burst: Int, perSecond: Int, now: Int64) {
        self.burst = Double(max(burst, 1))
        perNanosecond = Double(max(perSecond, 0)) / 1e9
        tokens = self.burst
        refilledAt = now
    }

    /// Takes a token at `now` (monotonic nanoseconds); `false` when none
    /// is left.
    mutating func take(now: Int64) -> Bool {
        if now > refilledAt {
            tokens = min(burst, tokens + Double(now - refilledAt) * perNanosecond)
            refilledAt = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
