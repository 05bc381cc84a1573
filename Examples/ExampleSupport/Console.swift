#if canImport(Glibc)
import Glibc
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

    /// Writes `line` and a newline to standard error.
    public static func error(_ line: String) {
        fputs(line + "\n", stderr)
    }
}
