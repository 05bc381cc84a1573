import RxUV

extension TerminationStatus {
    /// A shell's `$?`: the exit code, or 128 + the signal.
    public var exitCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}
