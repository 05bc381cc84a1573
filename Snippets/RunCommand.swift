// A health check: run a command every 30 s, at most 10 s each, and report
// its status and the first line of what it said.

import RxCore
import RxUV

func healthChecks(loop: Loop) -> Disposable {
    var check = ProcessOptions("curl", arguments: ["-fsS", "http://127.0.0.1:8080/health"])
    check.teardownGracePeriod = .seconds(2)
    return loop.rx.timer(after: .seconds(0), repeating: .seconds(30))
        .flatMapFirst { _ in
            loop.rx.run(check, outputLimit: 64 * 1024)
                .timeout(.seconds(10), scheduler: loop)
                .asObservable()
        }
        .subscribe(
            onNext: { output in
                let firstLine = output.standardOutput.string.split(separator: "\n").first ?? ""
                print("health: \(output.status) \(firstLine)")
            },
            onError: { print("health check failed: \($0)") })
}
