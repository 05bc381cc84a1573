import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `loop.rx.spawn` and `loop.rx.run` against real programs (`sh`, `cat`,
/// `python3`, `sleep`, `yes`): statuses, byte-exact output, input, the
/// teardown of children let go of, and reaping.
final class ChildProcessTests: BridgeTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: String! { temporary.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-process")
    }

    override func tearDownWithError() throws {
        temporary.remove()
        try super.tearDownWithError()
    }

    /// Runs `options` to its end on the test's loop.
    private func run(_ options: ProcessOptions, input: ByteBuffer? = nil, outputLimit: Int = 16 * 1024 * 1024, timeout: Double = 20) throws -> ProcessOutput {
        var result: Result<ProcessOutput, Error>?
        _ = loop.rx.run(options, input: input, outputLimit: outputLimit).subscribe(
            onSuccess: { result = .success($0) }, onFailure: { result = .failure($0) })
        runLoop(timeout: timeout)
        return try XCTUnwrap(result).get()
    }

    private func shell(_ script: String) -> ProcessOptions {
        ProcessOptions("sh", arguments: ["-c", script])
    }

    /// Whether process `pid` exists (a zombie counts).
    private func exists(_ pid: Int32) -> Bool {
        access("/proc/\(pid)", F_OK) == 0
    }

    /// Whether process `pid` runs: exists and is not a zombie (an orphan's
    /// zombie waits for whoever adopted it).
    private func isRunning(_ pid: Int32) -> Bool {
        processes().contains { $0.pid == pid && $0.state != "Z" }
    }

    /// Each process's pid, name, state and parent, from `/proc/<pid>/stat`.
    private func processes() -> [(pid: Int32, name: String, state: Substring, parent: Int32)] {
        DirectoryListing.entries(of: "/proc").compactMap { entry in
            guard let pid = Int32(entry), let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 512)
            guard fgets(&line, 512, file) != nil else { return nil }
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // "pid (name) state ppid ...": the name may hold spaces.
            guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
            return (pid, String(text[text.index(after: open)..<close]), fields[0], parent)
        }
    }

    /// Zombies whose parent is this process.
    private func zombieChildren() -> [Int32] {
        processes().filter { $0.state == "Z" && $0.parent == getpid() }.map(\.pid)
    }

    /// Children of this process named `name`.
    private func childPIDs(named name: String) -> [Int32] {
        processes().filter { $0.name == name && $0.parent == getpid() }.map(\.pid)
    }

    // MARK: Status

    func testExitCodesAndSignals_AreValues() throws {
        let table: [(script: String, status: TerminationStatus)] = [
            ("exit 0", .exited(0)),
            ("exit 3", .exited(3)),
            ("exit 255", .exited(255)),
            ("kill -TERM $$", .signaled(SIGTERM)),
            ("kill -KILL $$", .signaled(SIGKILL)),
        ]
        for row in table {
            XCTAssertEqual(try run(shell(row.script)).status, row.status, row.script)
            assertNoLeaks(row.script)
        }
        XCTAssertTrue(try run(shell("exit 0")).status.isSuccess)
    }

    func testMissingExecutable_FailsWithENOENT_NamingIt() {
        for name in ["rxuv-no-such-program", "/nonexistent/rxuv-program"] {
            XCTAssertThrowsError(try run(ProcessOptions(name)), name) { error in
                let failure = error as? UVError
                XCTAssertEqual(failure?.code, .noSuchFileOrDirectory)
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
            assertNoLeaks(name)
        }
    }

    func testNotExecutable_FailsWithEACCES() throws {
        let path = "\(directory!)/plain"
        _ = try run(shell("echo hello > \(path); chmod 644 \(path)"))
        XCTAssertThrowsError(try run(ProcessOptions(path))) { error in
            XCTAssertEqual((error as? UVError)?.code, .permissionDenied, "\(error)")
        }
    }

    // MARK: Output and input

    /// 8 MiB on each of stdout and stderr, written in interleaved chunks,
    /// arrive byte-exact.
    func testStdoutAndStderr_EightMiBEach_Interleaved_ByteExact() throws {
        let size = 8 * 1024 * 1024
        let script = """
            import sys
            out = (bytes((i * 7 + 1) % 251 for i in range(251)) * (\(size) // 251 + 1))[:\(size)]
            err = (bytes((i * 13 + 5) % 241 for i in range(241)) * (\(size) // 241 + 1))[:\(size)]
            for start in range(0, \(size), 65536):
                sys.stdout.buffer.write(out[start:start + 65536]); sys.stdout.buffer.flush()
                sys.stderr.buffer.write(err[start:start + 65536]); sys.stderr.buffer.flush()
            """
        let output = try run(ProcessOptions("python3", arguments: ["-c", script]), timeout: 60)
        XCTAssertEqual(output.status, .exited(0))
        XCTAssertEqual(output.standardOutput.count, size)
        XCTAssertEqual(output.standardError.count, size)
        XCTAssertTrue(output.standardOutput.enumerated().allSatisfy { $0.element == UInt8(($0.offset * 7 + 1) % 251) })
        XCTAssertTrue(output.standardError.enumerated().allSatisfy { $0.element == UInt8(($0.offset * 13 + 5) % 241) })
    }

    /// Chunks from an Observable written to `cat`'s stdin come back on its
    /// stdout, in order; the end of input ends `cat`.
    func testStdin_FedFromAnObservable_ReachesCatAndBack() throws {
        let chunks = (0..<200).map { ByteBuffer(string: "line \($0) " + String(repeating: "x", count: $0 * 37) + "\n") }
        var received: [ByteBuffer] = []
        var status: TerminationStatus?
        var failure: Error?
        _ = loop.rx.spawn(ProcessOptions("cat")).asObservable().flatMap { child -> Observable<ByteBuffer> in
            let input = Observable.from(chunks).concatMap { child.stdin!.write($0) }.asCompletable().andThen(child.stdin!.shutdown())
            return Observable.merge(
                child.stdout,
                input.andThen(Observable<ByteBuffer>.empty()),
                child.exit.do(onSuccess: { status = $0 }).asObservable().flatMap { _ in Observable<ByteBuffer>.empty() })
        }.subscribe(onNext: { received.append($0) }, onError: { failure = $0 })
        runLoop()
        XCTAssertNil(failure)
        XCTAssertEqual(status, .exited(0))
        XCTAssertEqual(ByteBuffer(concatenating: received), ByteBuffer(concatenating: chunks))
    }

    func testRun_WithInput_EnvironmentAndWorkingDirectory() throws {
        var options = shell("cat; echo \"$RXUV_GREETING\"; pwd; echo \"${HOME:-no home}\"")
        options.environment = .custom(["RXUV_GREETING": "hello", "PATH": "/usr/bin:/bin"])
        options.workingDirectory = directory
        let output = try run(options, input: ByteBuffer(string: "from stdin\n"))
        XCTAssertEqual(output.standardOutput.string, "from stdin\nhello\n\(directory!)\nno home\n")
        var inherited = shell("echo \"$RXUV_GREETING $HOME\"")
        inherited.environment = .inherit(adding: ["RXUV_GREETING": "hi"])
        XCTAssertEqual(try run(inherited).standardOutput.string, "hi \(String(cString: getenv("HOME")))\n")
    }

    /// A child that exits without reading its input: the write fails with
    /// EPIPE (SIGPIPE is ignored), which `run` does not count as an error.
    func testRun_ChildIgnoringItsInput_IsNotAnError() throws {
        let output = try run(shell("exit 0"), input: ByteBuffer(Array(repeating: 7, count: 4 * 1024 * 1024)))
        XCTAssertEqual(output.status, .exited(0))
    }

    func testExecutableInPATH_NotExecutable_FailsWithEACCES() throws {
        let path = "\(directory!)/rxuv-tool"
        _ = try run(shell("echo 'echo hi' > \(path); chmod 644 \(path)"))
        var options = ProcessOptions("rxuv-tool")
        options.environment = .inherit(adding: ["PATH": "\(directory!):/usr/bin:/bin"])
        XCTAssertThrowsError(try run(options)) { error in
            XCTAssertEqual((error as? UVError)?.code, .permissionDenied, "\(error)")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }

    func testStandardDescriptors_DiscardInheritAndGivenDescriptor() throws {
        let path = "\(directory!)/out"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var options = shell("echo to-file; echo to-null >&2")
        options.standardOutput = .descriptor(descriptor)
        options.standardError = .discard
        let output = try run(options)
        XCTAssertEqual(output.status, .exited(0))
        XCTAssertEqual(output.standardOutput.count, 0)
        XCTAssertEqual(output.standardError.count, 0)
        XCTAssertEqual(try run(ProcessOptions("cat", arguments: [path])).standardOutput.string, "to-file\n")
    }

    func testOutputLimit_FailsClearly_AndTearsTheChildDown() throws {
        var pid: Int32?
        var failure: Error?
        var options = ProcessOptions("yes")
        options.teardownGracePeriod = .milliseconds(500)
        _ = loop.rx.run(options, outputLimit: 100_000).subscribe(onFailure: { failure = $0 })
        // The child's pid, from /proc: the only `yes` whose parent is us.
        _ = loop.rx.timer(after: .milliseconds(50)).subscribe(onNext: { _ in pid = self.childPIDs(named: "yes").first })
        runLoop()
        let exceeded = try XCTUnwrap(failure as? ProcessOutputLimitExceeded, "\(String(describing: failure))")
        XCTAssertEqual(exceeded.stream, "stdout")
        XCTAssertEqual(exceeded.limit, 100_000)
        XCTAssertTrue(exceeded.description.contains("exceeded the output limit of 100000 bytes"))
        if let pid {
            XCTAssertFalse(exists(pid), "the child is still there")
        }
        XCTAssertEqual(zombieChildren(), [])
    }

    // MARK: Teardown and reaping

    /// Disposing the only subscription to a `sleep 100` before it exits:
    /// SIGTERM ends it at once, the process handle closes after the exit,
    /// and no zombie is left.
    func testDisposeBeforeExit_SendsSIGTERM_NoZombie() throws {
        let marker = "\(directory!)/terminated"
        var pid: Int32?
        let subscription = loop.rx.spawn(shell("trap 'echo term > \(marker); exit 0' TERM; sleep 100 & wait")).asObservable()
            .flatMap { child -> Observable<TerminationStatus> in
                pid = child.pid
                return child.exit.asObservable()
            }.subscribe()
        let start = DispatchTime.now()
        _ = loop.rx.timer(after: .milliseconds(200)).subscribe(onNext: { _ in subscription.dispose() })
        runLoop()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertLessThan(elapsed, 4, "SIGTERM did not end the child before the grace period")
        XCTAssertEqual(try run(ProcessOptions("cat", arguments: [marker])).standardOutput.string, "term\n")
        XCTAssertFalse(exists(try XCTUnwrap(pid)))
        XCTAssertEqual(zombieChildren(), [])
        // The shell's own `sleep` outlives it (not in a group of its own): end it.
        for orphan in childPIDs(named: "sleep") { kill(orphan, SIGKILL) }
    }

    /// A child that ignores SIGTERM gets SIGKILL after the grace period.
    func testChildIgnoringSIGTERM_GetsSIGKILL_AfterTheGracePeriod() throws {
        var options = shell("trap '' TERM; exec sleep 100")
        options.teardownGracePeriod = .milliseconds(400)
        var pid: Int32?
        let subscription = loop.rx.spawn(options).asObservable().flatMap { child -> Observable<TerminationStatus> in
            pid = child.pid
            return child.exit.asObservable()
        }.subscribe()
        // Timed from the dispose, which starts the grace period: the loop's
        // clock (uv_now) runs from its last iteration, so a timer armed
        // before the first run may fire early by the time the set-up took.
        var disposed: DispatchTime?
        _ = loop.rx.timer(after: .milliseconds(100)).subscribe(onNext: { _ in
            disposed = DispatchTime.now()
            subscription.dispose()
        })
        runLoop()
        let start = try XCTUnwrap(disposed)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertGreaterThanOrEqual(elapsed, 0.39, "SIGKILL came before the grace period")
        XCTAssertLessThan(elapsed, 5)
        XCTAssertFalse(exists(try XCTUnwrap(pid)))
        XCTAssertEqual(zombieChildren(), [])
    }

    /// `sh -c 'sleep 100 &'` exits at once, but its `sleep` keeps stdout
    /// open: `run` completes after the drain timeout, not after 100 s.
    func testDescendantHoldingThePipe_DoesNotHangRunPastItsBound() throws {
        var options = shell("sleep 100 & echo $!")
        options.outputDrainTimeout = .milliseconds(300)
        let start = DispatchTime.now()
        let output = try run(options)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertEqual(output.status, .exited(0))
        XCTAssertLessThan(elapsed, 5)
        let sleeper = try XCTUnwrap(Int32(output.standardOutput.string.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(sleeper, SIGKILL)
    }

    /// A new session: the child leads its group, and `kill(group: true)`
    /// reaches its own children too.
    func testNewSession_KillGroup_ReachesDescendants() throws {
        var options = shell("sleep 100 & echo $!; wait")
        options.newSession = true
        var status: TerminationStatus?
        var grandchild: Int32?
        var child: ChildProcess?
        _ = loop.rx.spawn(options).subscribe(onSuccess: { spawned in
            child = spawned
            _ = spawned.stdout.take(1).subscribe(onNext: { line in
                grandchild = Int32(line.string.trimmingCharacters(in: .whitespacesAndNewlines))
                _ = spawned.kill(SIGTERM, group: true).subscribe()
            })
            _ = spawned.exit.subscribe(onSuccess: { status = $0 })
        })
        runLoop()
        XCTAssertEqual(status, .signaled(SIGTERM))
        let sleeper = try XCTUnwrap(grandchild)
        usleep(100_000)
        XCTAssertFalse(isRunning(sleeper), "the group signal missed the grandchild")
        // After the exit, the pid may be reused: kill refuses.
        var failure: Error?
        _ = child?.kill().subscribe(onError: { failure = $0 })
        runLoop()
        XCTAssertEqual((failure as? UVError)?.code, .noSuchProcess)
        child = nil
    }

    func testTwoHundredShortChildren_AllReaped() throws {
        var statuses: [TerminationStatus] = []
        for index in 0..<200 {
            _ = loop.rx.run(shell("exit \(index % 7)")).subscribe(onSuccess: { statuses.append($0.status) })
        }
        runLoop(timeout: 60)
        XCTAssertEqual(statuses.count, 200)
        XCTAssertEqual(statuses.sorted { $0.description < $1.description }, (0..<200).map { TerminationStatus.exited(Int32($0 % 7)) }.sorted { $0.description < $1.description })
        XCTAssertEqual(zombieChildren(), [])
    }

    /// This process's open descriptors once a child has run: libuv keeps
    /// what its first child opens for the process's life (the SIGCHLD
    /// signal pipe, the loop's reserve), which is not a leak.
    private func descriptorsAfterAFirstChild() throws -> Int {
        XCTAssertEqual(try run(ProcessOptions("/bin/true")).status, .exited(0))
        return DirectoryListing.entries(of: "/proc/self/fd").count
    }

    /// 10,000 short-lived children, 32 at a time: every one reaped with its
    /// status, no zombie and no descriptor left behind. The sanitizer runs
    /// make 1,000 (`RXUV_CHILD_COUNT`): under ASan each fork of the test
    /// process costs some 30 ms, and they check memory, not scale.
    func testTenThousandShortChildren_ReapedNoDescriptorLeft() throws {
        let descriptorsBefore = try descriptorsAfterAFirstChild()
        let count = getenv("RXUV_CHILD_COUNT").flatMap { Int(String(cString: $0)) } ?? 10_000
        var exitedZero = 0
        var other: [String] = []
        let loop = self.loop!
        let runs: Observable<Observable<ProcessOutput>> = Observable.range(start: 0, count: count).map { _ in
            loop.rx.run(ProcessOptions("/bin/true")).asObservable()
        }
        _ = runs.merge(maxConcurrent: 32)
            .subscribe(
                onNext: { (output: ProcessOutput) in
                    if output.status == .exited(0) { exitedZero += 1 } else { other.append("\(output.status)") }
                },
                onError: { error in other.append("\(error)") })
        runLoop(timeout: 240)
        XCTAssertEqual(exitedZero, count, "\(other.prefix(5))")
        XCTAssertEqual(other, [])
        XCTAssertEqual(zombieChildren(), [])
        XCTAssertEqual(DirectoryListing.entries(of: "/proc/self/fd").count, descriptorsBefore)
    }

    /// A child killed with SIGKILL while it writes: its exit is the signal,
    /// the output up to the kill arrives whole and in order (every line
    /// before the last complete, the last a prefix of its line), and no
    /// zombie or descriptor is left.
    func testChildKilledMidOutput_OutputUpToTheKillDelivered() throws {
        let descriptorsBefore = try descriptorsAfterAFirstChild()
        let script = "import sys\nfor i in range(10**8):\n    sys.stdout.write('line %d\\n' % i)\n"
        var received: [UInt8] = []
        var status: TerminationStatus?
        var outputEnded = false
        _ = loop.rx.spawn(ProcessOptions("python3", arguments: ["-c", script])).subscribe(onSuccess: { child in
            var killed = false
            _ = child.stdout.subscribe(
                onNext: { bytes in
                    received += bytes
                    if !killed, received.count > 256 * 1024 {
                        killed = true
                        _ = child.kill(SIGKILL).subscribe()
                    }
                },
                onCompleted: { outputEnded = true })
            _ = child.exit.subscribe(onSuccess: { status = $0 })
        })
        runLoop(timeout: 30)
        XCTAssertEqual(status, .signaled(SIGKILL))
        XCTAssertTrue(outputEnded)
        XCTAssertGreaterThan(received.count, 256 * 1024)
        let lines = received.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.dropLast().enumerated() where String(decoding: line, as: UTF8.self) != "line \(index)" {
            XCTFail("line \(index) is \(String(decoding: line, as: UTF8.self))")
            break
        }
        let last = String(decoding: lines.last ?? [], as: UTF8.self)
        XCTAssertTrue("line \(lines.count - 1)".hasPrefix(last), "the last piece \(last)")
        XCTAssertEqual(zombieChildren(), [])
        XCTAssertEqual(DirectoryListing.entries(of: "/proc/self/fd").count, descriptorsBefore)
    }

    /// libuv owns SIGCHLD; a subscriber to it still sees it, and exits are
    /// still reported.
    func testSIGCHLDWatcher_BesideSpawnedChildren() throws {
        var deliveries = 0
        _ = loop.rx.signal(SIGCHLD).take(1).subscribe(onNext: { _ in deliveries += 1 })
        var status: TerminationStatus?
        _ = loop.rx.run(shell("exit 4")).subscribe(onSuccess: { status = $0.status })
        runLoop()
        XCTAssertEqual(status, .exited(4))
        XCTAssertEqual(deliveries, 1)
    }

    /// Subscribing to `stdout` twice at once: the second fails with EBUSY.
    func testSecondStdoutSubscriber_FailsWithEBUSY() throws {
        var failure: Error?
        var first = ""
        _ = loop.rx.spawn(shell("echo one")).subscribe(onSuccess: { child in
            _ = child.stdout.subscribe(onNext: { first += $0.string })
            _ = child.stdout.subscribe(onError: { failure = $0 })
        })
        runLoop()
        XCTAssertEqual(first, "one\n")
        XCTAssertEqual((failure as? UVError)?.code, .busy)
    }
}
