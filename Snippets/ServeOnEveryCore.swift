// An echo server on every core that stops cleanly on SIGINT or SIGTERM.

import Dispatch
import RxCore
import RxUV

func serveOnEveryCore() throws {
    let group = try LoopGroup() // one loop per core, each on its own thread
    let shutdown = group.rx.gracefulShutdown(deadline: .seconds(5))
    var options = ServerOptions()
    options.maxConnections = 10_000
    options.idleTimeout = .seconds(60)
    let stopped = DispatchSemaphore(value: 0)
    _ = group.rx.serve(host: "127.0.0.1", port: 7000, options: options) { served in
        // On the connection's own loop, until the server drains.
        served.connection.rx.data
            .take(until: served.quiesce)
            .flatMap { served.connection.write($0) }
            .catch { _ in .empty() }
            .asCompletable()
    }
    .subscribe(
        onSuccess: { server in
            shutdown.add(server)
            print("listening on \(server.address)")
        },
        onFailure: { error in
            print("cannot listen: \(error)")
            shutdown.now()
        })
    _ = shutdown.completed.subscribe(onCompleted: { stopped.signal() })
    stopped.wait()
    try group.shutdown()
}
