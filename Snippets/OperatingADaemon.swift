// A daemon that is watched: stalls reported, each loop's health recorded
// through swift-metrics and used to shed load, requests traced across a
// call out.

import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import Synchronization

func operatedDaemon() throws {
    // Stalls past 250 ms reported through each loop's logger; every loop's
    // health recorded each second (bootstrap the metrics backend first).
    let group = try LoopGroup(watchdog: LoopWatchdog.Options(stallThreshold: .milliseconds(250), metricsInterval: .seconds(1)))
    // Each loop says whether it was busier than 90 % over the last second.
    let busy = Mutex(Set<ObjectIdentifier>())
    let watching = Disposables.create(
        group.loops.map { loop in
            loop.rx.health(every: .seconds(1)).subscribe(onNext: { health in
                busy.withLock { busyLoops in
                    if health.utilization > 0.9 {
                        busyLoops.insert(ObjectIdentifier(loop))
                    } else {
                        busyLoops.remove(ObjectIdentifier(loop))
                    }
                }
            })
        })
    let client = HTTPClient(group: group)
    var router = HTTPRouter()
    router.get("/order/{id}") { request in
        guard !busy.withLock({ $0.contains(ObjectIdentifier(request.loop)) }) else {
            return .just(HTTPServerResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "1"]))
        }
        request.span?.attributes["order.id"] = request.parameters["id"] ?? ""
        // The client's span is a child of this request's span, and the
        // stock service's server span a child of the client's.
        let stock = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8081", path: "/stock")
        return client.rx.send(stock, context: request.serviceContext)
            .flatMap { response in response.body.collect(upTo: 1 << 16) }
            .map { body in .text("in stock: \(body.string)") }
    }
    let serving = group.rx.serveHTTP(host: "127.0.0.1", port: 8080, handler: router.handler).subscribe()
    // ... until the daemon stops:
    serving.dispose()
    watching.dispose()
    _ = client.shutdown().subscribe()
}
