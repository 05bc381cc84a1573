// An echo server in async/await: each connection is a task on its loop's
// executor, and an actor on the same loop keeps the counts, with no hop
// between them. Reading pauses while a connection's task is behind;
// writing waits while its peer is slow to read.

import RxCore
import RxUV

/// What the server echoed. Its methods run on the loop's thread: its
/// executor is the loop.
actor EchoStats {
    let loop: Loop
    private(set) var bytes = 0
    private(set) var connections = 0

    init(loop: Loop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.asUnownedSerialExecutor()
    }

    func opened() {
        connections += 1
    }

    func echoed(_ count: Int) {
        bytes += count
    }
}

let loop = try Loop()
let stats = EchoStats(loop: loop)

let serving = loop.rx.serve(host: "127.0.0.1", port: 7000) { served in
    // A task that prefers the connection's loop: the iteration, the writes
    // and the actor's methods all run on that loop's thread.
    Completable.create(executorPreference: served.loop) {
        await stats.opened()
        let outbound = served.connection.outbound
        // Reads stop above 256 KiB waiting here and resume at 64 KiB.
        for try await chunk in served.connection.inbound(highWatermark: 256 * 1024, lowWatermark: 64 * 1024) {
            // Suspends only while more than the connection's high watermark
            // waits to be written.
            try await outbound.write(chunk)
            await stats.echoed(chunk.count)
        }
    }
}
let subscription = serving.subscribe(onSuccess: { server in print("listening on \(server.address)") })

loop.run()
subscription.dispose()
