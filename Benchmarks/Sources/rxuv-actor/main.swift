import RxUV

#if canImport(Glibc)
import Glibc
#endif

// rxuv-actor: calls hopping onto a loop from other threads, two ways, in
// one run: an actor whose executor is the loop (`await counter.bump()`),
// and the same step through `loop.execute` with a continuation (the hop a
// program makes without the executor).
//
//   rxuv-actor [--callers N] [--calls M] [--rounds R]
//
// N tasks on the global executor (default 8) each make M calls (default
// 100,000), one after the other; every call runs on the loop thread and
// resumes its caller on the global executor (`actor_calls_per_s`,
// `execute_calls_per_s`). A third way makes the actor calls back to back,
// the caller staying on the loop from one call to the next
// (`actor_consecutive_calls_per_s`: the hop the runtime saves when the
// caller has nothing to do elsewhere). R rounds (default 3) alternate the
// ways. Prints one line of key=value pairs: the median calls per second of
// each way and the ratio of the first two.

var callerArgument = 8
var callArgument = 100_000
var roundArgument = 3
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--callers": callerArgument = arguments.next().flatMap(Int.init) ?? 0
    case "--calls": callArgument = arguments.next().flatMap(Int.init) ?? 0
    case "--rounds": roundArgument = arguments.next().flatMap(Int.init) ?? 0
    default: callerArgument = 0
    }
}
let callers = callerArgument
let calls = callArgument
let rounds = roundArgument
guard callers > 0, calls > 0, rounds > 0 else {
    print("usage: rxuv-actor [--callers N] [--calls M] [--rounds R]")
    exit(2)
}

/// The state both ways update, on the loop thread.
actor Counter {
    let loop: Loop
    var count = 0

    init(loop: Loop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.asUnownedSerialExecutor()
    }

    func bump() {
        count += 1
    }
}

/// Runs on the global executor (`@concurrent`): brings a caller back
/// there. Says whether it ran off the loop thread.
@inline(never) @Sendable @concurrent func offTheLoop() async -> Bool {
    !loop.isOnLoopThread
}

/// The same state for `loop.execute`: touched on the loop thread only.
final class LoopCount: @unchecked Sendable {
    var count = 0
}

let loop = try Loop()
let total = callers * calls

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Calls per second onto an actor on the loop; with `hopBack`, each caller
/// goes back to the global executor between calls (each call hops there
/// and back), otherwise it stays on the loop from one call to the next.
func actorRound(hopBack: Bool) throws -> Double {
    let counter = Counter(loop: loop)
    let elapsed = try seconds {
        let done = try loop.run {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<callers {
                    group.addTask(executorPreference: globalConcurrentExecutor) {
                        for _ in 0..<calls {
                            await counter.bump()
                            if hopBack {
                                // Back on the global executor, as the
                                // caller's own work between calls would be.
                                let off = await offTheLoop()
                                precondition(off, "rxuv-actor: a caller stayed on the loop")
                            }
                        }
                    }
                }
            }
            return await counter.count
        }
        precondition(done == total, "rxuv-actor: \(done) calls of \(total)")
    }
    return Double(total) / elapsed
}

func executeRound() throws -> Double {
    let state = LoopCount()
    let elapsed = try seconds {
        let done = try loop.run {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<callers {
                    group.addTask(executorPreference: globalConcurrentExecutor) {
                        for _ in 0..<calls {
                            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                                loop.execute {
                                    state.count += 1
                                    continuation.resume()
                                }
                            }
                        }
                    }
                }
            }
            return await withCheckedContinuation { continuation in loop.execute { continuation.resume(returning: state.count) } }
        }
        precondition(done == total, "rxuv-actor: \(done) executes of \(total)")
    }
    return Double(total) / elapsed
}

var actorRates: [Double] = []
var consecutiveRates: [Double] = []
var executeRates: [Double] = []
for _ in 0..<rounds {
    actorRates.append(try actorRound(hopBack: true))
    consecutiveRates.append(try actorRound(hopBack: false))
    executeRates.append(try executeRound())
}
try loop.close()
let actor = actorRates.sorted()[rounds / 2]
let consecutive = consecutiveRates.sorted()[rounds / 2]
let execute = executeRates.sorted()[rounds / 2]
print(
    "callers=\(callers) calls=\(calls) rounds=\(rounds) actor_calls_per_s=\(Int(actor))",
    "actor_consecutive_calls_per_s=\(Int(consecutive)) execute_calls_per_s=\(Int(execute))",
    "actor_over_execute=\(Double(Int(actor / execute * 100)) / 100)")
