#if canImport(Glibc)
import Glibc
#endif

/// Command-line options: `--quick` runs small counts once (for CI, so the
/// benchmarks never rot); `--repetitions N` sets how many runs each median uses;
/// `--count N` sets each case's count (events; per subscriber for case c;
/// subscriptions for d) and `--rx-only` leaves OpenCombine out, so that
/// `Benchmarks/Scripts/thresholds.py` can count RxCore's instructions for a
/// fixed amount of work.
struct Options {
    var quick = false
    var repetitions = 5
    var fixedCount: Int?
    var rxOnly = false
    /// Run only these cases (`a`, `b`, `c`, `d`); all when empty.
    var cases: Set<String> = []

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick":
                quick = true
                repetitions = 1
            case "--case":
                if let name = iterator.next() {
                    cases.insert(name)
                }
            case "--count":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else {
                    print("RxCoreBenchmarks: --count needs a positive number")
                    exit(2)
                }
                fixedCount = value
            case "--rx-only":
                rxOnly = true
            case "--repetitions":
                if let value = iterator.next().flatMap(Int.init), value > 0 {
                    repetitions = value
                }
            default:
                print("usage: RxCoreBenchmarks [--quick] [--repetitions N] [--count N] [--rx-only] [--case a|b|c|d ...]")
                exit(2)
            }
        }
    }

    /// Whether case `name` runs.
    func runs(_ name: String) -> Bool {
        cases.isEmpty || cases.contains(name)
    }

    /// `--count` when given; else `full` in a normal run, a hundredth (at
    /// least 1,000) in quick mode.
    func count(_ full: Int) -> Int {
        if let fixedCount { return fixedCount }
        return quick ? max(1_000, full / 100) : full
    }
}
