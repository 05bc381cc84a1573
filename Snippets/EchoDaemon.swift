// An echo daemon with a graceful shutdown: on SIGINT or SIGTERM it stops
// accepting, stops reading, gives writes in flight two seconds, closes every
// connection and exits.

import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let loop = try Loop()
let bag = DisposeBag()
let exitStatus = BehaviorRelay<Int32>(value: 0)

// The first SIGINT or SIGTERM, shared by everything that must react to it.
// `take(1)` closes both signal handles once it has arrived; `.forever`
// replays it to late subscribers instead of watching the signals again.
let shutdown = Observable.merge(loop.rx.signal(SIGINT), loop.rx.signal(SIGTERM))
    .take(1)
    .do(onNext: { signum in print("echo-daemon: signal \(signum): draining") })
    .share(replay: 1, scope: .forever)

// Two seconds after the shutdown, writes still queued are given up.
let graceOver =
    shutdown
    .flatMap { _ in loop.rx.timer(after: .seconds(2)) }
    .share(replay: 1, scope: .forever)

loop.rx.listen(host: "127.0.0.1", port: 7000, onListening: { print("echo-daemon: listening on \($0)") })
    .take(until: shutdown) // stop accepting: closes the listening socket
    .flatMap { connection in
        connection.rx.data
            .take(until: shutdown) // stop reading: the connection closes once its writes are flushed
            .flatMap { connection.write($0) } // echo; completes when libuv has written the bytes
            .take(until: graceOver) // ... or give up on them after the grace period
            .catch { _ in .empty() } // a reset ends this connection, not the daemon
            .do(onDispose: { connection.close() }) // whatever ended the session, the socket is closed
    }
    .subscribe(
        onError: { error in
            let reason = (error as? UVError)?.shortDescription ?? "\(error)"
            print("echo-daemon: cannot listen: \(reason)")
            exitStatus.accept(1)
        },
        onCompleted: { print("echo-daemon: stopped") }
    )
    .disposed(by: bag)

loop.run() // returns when the listener, the connections, the signals and the timer are all closed
try loop.close()
exit(exitStatus.value)
