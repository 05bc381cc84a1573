import RxCore

/// What `loop.rx.spawn` and `loop.rx.run` start, and how.
///
/// ```swift
/// var options = ProcessOptions("git", arguments: ["status", "--short"])
/// options.workingDirectory = "/srv/repo"
/// options.environment = .inherit(adding: ["GIT_PAGER": "cat"])
/// ```
public struct ProcessOptions: Sendable {
    /// The program: a path, or a name without a slash, which is searched
    /// in the directories of `PATH` (the child's `PATH` when `environment`
    /// sets one, otherwise this process's).
    public var executable: String
    /// The arguments after the program's name (`argv[1...]`).
    public var arguments: [String]
    /// The child's environment. Default: this process's.
    public var environment: ProcessEnvironment = .inherit
    /// The child's working directory; `nil` (the default) keeps this
    /// process's.
    public var workingDirectory: String?
    /// The child's standard input. Default: a pipe (`ChildProcess.stdin`).
    public var standardInput: ProcessIO = .pipe
    /// The child's standard output. Default: a pipe (`ChildProcess.stdout`).
    public var standardOutput: ProcessIO = .pipe
    /// The child's standard error. Default: a pipe (`ChildProcess.stderr`).
    public var standardError: ProcessIO = .pipe
    /// Starts the child in a new session (`setsid`, libuv's
    /// `UV_PROCESS_DETACHED`): it leads a new process group whose id is its
    /// pid, so `kill(_:group: true)` and the teardown reach the processes
    /// it starts, and a terminal's Ctrl-C no longer reaches it. Default:
    /// `false`, the child stays in this process's group.
    public var newSession = false
    /// Runs the child as this user id (`UV_PROCESS_SETUID`); needs the
    /// privilege to do so. `nil` (the default) keeps this process's.
    public var userID: UInt32?
    /// Runs the child as this group id (`UV_PROCESS_SETGID`). `nil` (the
    /// default) keeps this process's.
    public var groupID: UInt32?
    /// How long the teardown waits after SIGTERM before it sends SIGKILL,
    /// when a child is released (or a `run` disposed) before it exited
    /// (a timer of the loop's, `uv_timer_start`; whole milliseconds).
    /// Default: 5 seconds.
    public var teardownGracePeriod: Duration = .seconds(5)
    /// How long the output pipes are still read after the child exited:
    /// output on its way arrives, and a descendant that keeps a pipe open
    /// (`sh -c 'sleep 100 &'`) cannot hold `stdout`, `stderr` or `run`
    /// open longer than this (a timer of the loop's, `uv_timer_start`;
    /// whole milliseconds). Default: 1 second.
    public var outputDrainTimeout: Duration = .seconds(1)

    /// Options to start `executable` with `arguments`; everything else
    /// takes its default.
    public init(_ executable: String, arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }
}

/// Where one of a child's standard descriptors goes.
public enum ProcessIO: Sendable, Equatable {
    /// A new pipe (a Unix socket pair) to this process: `ChildProcess`'s
    /// `stdin`, `stdout` or `stderr`.
    case pipe
    /// The same descriptor as this process's.
    case inherit
    /// `/dev/null`.
    case discard
    /// This open descriptor of this process (a file, a socket); it stays
    /// open here, and the caller closes it.
    case descriptor(Int32)
}

/// A child's environment.
public struct ProcessEnvironment: Sendable, Equatable {
    /// Variables to set or replace in this process's environment, or the
    /// whole environment when `inherits` is `false`.
    public let variables: [String: String]
    /// Whether the child starts from this process's environment.
    public let inherits: Bool

    /// This process's environment, unchanged.
    public static let inherit = ProcessEnvironment(variables: [:], inherits: true)

    /// This process's environment with `variables` set (replacing the
    /// values of those it has).
    public static func inherit(adding variables: [String: String]) -> ProcessEnvironment {
        ProcessEnvironment(variables: variables, inherits: true)
    }

    /// Exactly `variables`, nothing of this process's.
    public static func custom(_ variables: [String: String]) -> ProcessEnvironment {
        ProcessEnvironment(variables: variables, inherits: false)
    }

    /// The entries `NAME=value` the child gets, in a stable order.
    func entries(inheriting parent: [String: String]) -> [String] {
        var merged = inherits ? parent : [:]
        merged.merge(variables) { _, new in new }
        return merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
