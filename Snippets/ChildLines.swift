// A child's output as lines while it runs, and its status at the end.

import RxCore
import RxUV

func followBuild(loop: Loop) -> Disposable {
    var build = ProcessOptions("make", arguments: ["-k"])
    build.newSession = true // the teardown reaches make's own children too
    return loop.rx.spawn(build).asObservable()
        .flatMap { child in
            Observable.merge(
                child.stdout.lines(maxLength: 64 * 1024).map { "out: \($0.string)" },
                child.stderr.lines(maxLength: 64 * 1024).map { "err: \($0.string)" },
                child.exit.asObservable().map { "make \($0)" })
        }
        .subscribe(onNext: { print($0) }, onError: { print("could not start make: \($0)") })
}
