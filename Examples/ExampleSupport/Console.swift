#if canImport(Glibc)
// @preconcurrency: Glibc declares `stdout` and `stderr` as mutable globals.
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output for command-line examples: whole lines, in order, even when
/// standard output is a pipe.
public enum Console {
    /// Makes standard output line-buffered, so each printed line reaches a
    /// pipe (a log collector, a test) as soon as it is printed.
    public static func lineBuffered() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// `1 connection`, `3 connections`: `count` and `noun`, plural unless one.
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `value` with `digits` decimals, rounded: `fixed(0.2149, 2) == "0.21"`.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// Writes `line` and a newline to standard error.
    public static func error(_ line: String) {
        fputs(line + "\n", stderr)
    }
}
