/// A loop that stopped turning, as its `LoopWatchdog` reports it: once
/// when the stall passes the watchdog's threshold (`isOver` false, at level
/// `warning`), and once when the loop turns again (`isOver` true, with the
/// stall's whole length, at level `notice`). Both go through the loop's
/// logger (`Loop.logger`, tagged with the loop's index in a `LoopGroup`),
/// as every diagnostic of the bridge does, with the stall's figures as
/// metadata (`stall_ms`, `running`).
public struct LoopStall: Error, Sendable, Equatable, CustomStringConvertible {
    /// The loop's label: its index in its `LoopGroup`, or in the list a
    /// standalone watchdog watches.
    public var loop: String
    /// How long the loop had not turned when this was reported: at least
    /// the threshold when the stall is reported, its whole length (to the
    /// watchdog's sampling period) when it is over.
    public var duration: Duration
    /// What the loop was running when the stall was noticed: the kind of
    /// callback (`a tcp handle's callback`, `a write request's callback`,
    /// `a timer handle's callback`, `a job of Swift concurrency`, `a
    /// closure queued to the loop`).
    public var running: String
    /// `false` when the stall is reported, `true` when the loop has turned
    /// again.
    public var isOver: Bool

    /// A stall report from its parts.
    public init(loop: String, duration: Duration, running: String, isOver: Bool) {
        self.loop = loop
        self.duration = duration
        self.running = running
        self.isOver = isOver
    }

    /// The stall's length in whole milliseconds.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// `loop 1 stalled: it has not turned for 262 ms, running a tcp
    /// handle's callback`, or `loop 1 turned again after a stall of 503 ms
    /// (running a tcp handle's callback)`.
    public var description: String {
        isOver
            ? "loop \(loop) turned again after a stall of \(milliseconds) ms (running \(running))"
            : "loop \(loop) stalled: it has not turned for \(milliseconds) ms, running \(running)"
    }
}
