import HTTPTypes
import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Switching protocols (RFC 9110 §7.8): a `101` with an `HTTPUpgrade`
/// answers a request that asked for it; its head goes out, HTTP ends on
/// the connection, and the upgrade's `Completable` becomes the
/// connection's life.
extension HTTPServerConnection {
    /// A misused 101, for the report.
    struct UpgradeRefused: Error, CustomStringConvertible {
        let description: String
    }

    /// Answers a `101` response (or a response that carries an upgrade):
    /// switches when the request allows it, else answers in its place.
    func switchProtocols(_ response: HTTPServerResponse) {
        guard let upgrade = response.upgrade, response.status.code == 101 else {
            refuseUpgrade(
                response.upgrade == nil
                    ? "a 101 without an HTTPUpgrade (answer HTTPServerResponse.switchingProtocols)"
                    : "an HTTPUpgrade on a \(response.status.code), not a 101")
            return
        }
        guard state.value.exchange.asksToUpgrade else {
            refuseUpgrade("a 101 to a request that did not ask to upgrade (Upgrade and Connection: upgrade, HTTP/1.1)")
            return
        }
        guard state.value.exchange.body == nil else {
            refuseUpgrade("a 101 to a request with a body")
            return
        }
        guard !state.value.exchange.bytesAfterUpgradeRequest, state.value.backlog.isEmpty, !state.value.inputEnded else {
            // The client sent more before the answer (RFC 6455 §4.1 and
            // RFC 9113 §3.2: it must wait for it), or left: those bytes
            // were (or are being) read as HTTP, and are no protocol's now.
            state.value.acceptsNoMore = true
            respond(.text("bytes after an upgrade request before its answer\n", status: .badRequest))
            return
        }
        guard !state.value.acceptsNoMore else {
            // Draining (or the connection's last request): no new protocol.
            respond(.text("the server is shutting down\n", status: .serviceUnavailable))
            return
        }
        state.value.exchange.start(status: response.status)
        if let onResponse = options.onResponse {
            let nanoseconds = state.value.exchange.began.map { Loop.monotonicNanoseconds - $0 } ?? 0
            onResponse(HTTPResponseRecord(method: state.value.exchange.method, status: response.status, nanoseconds: nanoseconds))
        }
        let date = state.value.dates.value(secondsSince1970: Int64(time(nil)))
        write(
            HTTPResponseEncoder.head(
                response.headLines, body: .none, keepAlive: true, date: date, server: options.serverName, reusing: &state.value.spareHead))
        // HTTP ends: no more requests are read, no timer runs, the drain's
        // signal goes to the new protocol.
        state.value.life = .upgraded
        state.value.deadline.cancel()
        reading.dispose()
        quiescing.dispose()
        writeWatcher.watch(for: nil)
        if state.value.isHoldingReading {
            state.value.isHoldingReading = false
            stream.holdReading(false)
        }
        // The handler's Single has answered: nothing of it is left to stop.
        state.value.exchange.work = nil
        state.value.exchange.end()
        state.value.spareExchange = nil
        state.value.spareHead.release()
        let connection = HTTPUpgradedConnection(stream: stream, loop: loop, quiesce: quiesce, server: server, peer: peer)
        let context = ReportContext(loop: loop, server: server, peer: peer)
        upgraded.setDisposable(
            upgrade.run(connection).subscribe { [self] event in
                if case .error(let error) = event { report(error, context) }
                loop.enter { [self] in upgradeEnded() }
            })
    }

    /// The upgrade's protocol ended: so does the connection.
    func upgradeEnded() {
        guard state.value.life == .upgraded else { return }
        finish()
    }

    /// Answers `500` in place of a misused 101, reports why, and closes.
    private func refuseUpgrade(_ reason: String) {
        report(UpgradeRefused(description: reason), ReportContext(loop: loop, server: server, peer: peer))
        state.value.acceptsNoMore = true
        respond(.text("Internal Server Error\n", status: .internalServerError))
    }
}
