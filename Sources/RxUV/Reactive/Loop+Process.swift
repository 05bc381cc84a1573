@_spi(Bridge) import RxCore

extension Reactive where Base == Loop {
    /// Starts a child process (`uv_spawn`) when subscribed and succeeds with
    /// it, on the loop thread.
    ///
    /// Fails with `ENOENT` naming the executable when it does not exist (or
    /// is not found in `PATH`), `EACCES` when it cannot be run, and the
    /// `UVError` of any other failure to start. Disposing before the child
    /// started stops it from starting; after, the `ChildProcess` is the
    /// subscriber's, and its lifetime rule applies: releasing it before the
    /// child exited tears the child down (SIGTERM, then SIGKILL).
    ///
    /// libuv reaps its children itself, with a SIGCHLD handler of its own:
    /// `loop.rx.signal(SIGCHLD)` may watch SIGCHLD beside it, but nothing in
    /// the process may reap children (`waitpid(-1, …)`), ignore SIGCHLD
    /// (`SIG_IGN`) or replace its handler with `sigaction`: libuv would lose
    /// the exit statuses and `exit` would never fire.
    public func spawn(_ options: ProcessOptions) -> Single<ChildProcess> {
        Single(raw: Spawn(loop: base, options: options))
    }

    /// Runs a child process to its end and succeeds with its status and
    /// everything it wrote to standard output and standard error.
    ///
    /// `input`, when given, is written to the child's standard input, which
    /// is then closed; without it the child's standard input is `/dev/null`
    /// unless `options` says otherwise. A child that exits without reading
    /// all of `input` is not an error. Standard output and error are pipes
    /// unless `options` says otherwise (then they are empty here).
    ///
    /// Each of standard output and standard error may hold `outputLimit`
    /// bytes: a child that writes more fails the Single with
    /// `ProcessOutputLimitExceeded` and is torn down; output is never cut
    /// silently. Succeeds once the child exited and its output ended, or
    /// `options.outputDrainTimeout` after the exit when a descendant keeps a
    /// pipe open. Fails as `spawn` does when the child cannot start.
    /// Disposing before the end tears the child down. Events arrive on the
    /// loop thread.
    public func run(_ options: ProcessOptions, input: ByteBuffer? = nil, outputLimit: Int = 16 * 1024 * 1024) -> Single<ProcessOutput> {
        var options = options
        if input != nil {
            options.standardInput = .pipe
        } else if options.standardInput == .pipe {
            options.standardInput = .discard
        }
        let loop = base
        let drainTimeout = RxTimeInterval(options.outputDrainTimeout)
        return spawn(options).flatMap { child in
            let executable = child.executable
            let feed: Single<Void> =
                if let stdin = child.stdin, let input {
                    // The child may exit without reading: not an error here.
                    // A descendant that holds its input open without reading
                    // gets the drain timeout after the exit, as output does.
                    stdin.write(input).andThen(stdin.shutdown())
                        .catch { _ in .empty() }
                        .asObservable()
                        .take(until: child.exit.asObservable().delay(drainTimeout, scheduler: loop))
                        .do(onDispose: { stdin.close() })
                        .asCompletable()
                        .andThen(.just(()))
                } else {
                    .just(())
                }
            return Single.zip(
                collect(child.stdout, stream: "stdout", limit: outputLimit, executable: executable),
                collect(child.stderr, stream: "stderr", limit: outputLimit, executable: executable),
                child.exit,
                feed
            ) { standardOutput, standardError, status, _ in
                ProcessOutput(status: status, standardOutput: standardOutput, standardError: standardError)
            }
        }
    }

    /// The bytes of `output`, joined, failing past `limit`.
    private func collect(_ output: Observable<ByteBuffer>, stream: String, limit: Int, executable: String) -> Single<ByteBuffer> {
        Observable.deferred {
            var total = 0
            return output.do(onNext: { chunk in
                total += chunk.count
                if total > limit {
                    throw ProcessOutputLimitExceeded(stream: stream, limit: limit, executable: executable)
                }
            })
        }
        .toArray()
        .map { ByteBuffer(concatenating: $0) }
    }
}
