import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// UDP sockets over loopback: `bindUDP`, `connectUDP`, `datagrams`, `send`.
final class UDPSocketTests: BridgeTestCase {
    /// Binds a socket on 127.0.0.1 with a system-chosen port.
    private func bound(_ options: UDPOptions = UDPOptions()) -> UDPSocket {
        var socket: UDPSocket?
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: 0, options: options).subscribe(onSuccess: { socket = $0 }, onFailure: { XCTFail("bind: \($0)") })
        while socket == nil { loop.runOnce() }
        return socket!
    }

    func testEcho_RepliesComeFromTheServersAddress() {
        let server = bound()
        let client = bound()
        _ = server.rx.datagrams.subscribe(onNext: { datagram in
            _ = server.send(datagram.bytes, to: datagram.sender).subscribe()
        })
        var replies: [Datagram] = []
        _ = client.rx.datagrams.subscribe(onNext: { datagram in
            replies.append(datagram)
            client.close()
            server.close()
        })
        _ = client.send(ByteBuffer(string: "hello"), to: server.localAddress!).subscribe()
        runLoop()
        XCTAssertEqual(replies.map(\.bytes.string), ["hello"])
        XCTAssertEqual(replies.first?.sender, server.localAddress)
        XCTAssertEqual(replies.first?.isTruncated, false)
    }

    func testZeroLengthDatagram_IsADatagram() {
        let server = bound()
        let client = bound()
        var received: [Datagram] = []
        _ = server.rx.datagrams.subscribe(onNext: { datagram in
            received.append(datagram)
            server.close()
            client.close()
        })
        _ = client.send(ByteBuffer(), to: server.localAddress!).subscribe()
        runLoop()
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?.bytes.count, 0)
        XCTAssertEqual(received.first?.sender, client.localAddress)
    }

    func testThousandDatagrams_InOrder() {
        checkThousandDatagrams(batched: false)
    }

    func testThousandDatagrams_InOrderWithBatchedReceive() {
        checkThousandDatagrams(batched: true)
    }

    /// 1,000 numbered datagrams, sent in windows of 50 (a window is sent
    /// when the previous one has arrived, so the receive buffer never
    /// overflows), arrive complete and in order.
    private func checkThousandDatagrams(batched: Bool) {
        let server = bound(UDPOptions(batchedReceive: batched))
        let client = bound()
        let target = server.localAddress!
        var received: [Int] = []
        var sendErrors: [Error] = []
        func sendWindow(from first: Int) {
            for number in first..<min(first + 50, 1000) {
                _ = client.send(ByteBuffer(string: "datagram \(number)"), to: target).subscribe(onError: { sendErrors.append($0) })
            }
        }
        _ = server.rx.datagrams.subscribe(onNext: { datagram in
            received.append(Int(datagram.bytes.string.split(separator: " ").last!)!)
            if received.count == 1000 {
                server.close()
                client.close()
            } else if received.count % 50 == 0 {
                sendWindow(from: received.count)
            }
        })
        sendWindow(from: 0)
        runLoop()
        XCTAssertTrue(sendErrors.isEmpty, "\(sendErrors)")
        XCTAssertEqual(received, Array(0..<1000))
    }

    func testConnectedSocket_AClosedPortFailsSendsButDatagramsGoOn() {
        // A port nobody listens on: bound, noted, closed.
        let gone = bound()
        let port = gone.localAddress!.port
        gone.close()
        loop.runNoWait()

        let reported = CapturedReports(on: loop)

        var client: UDPSocket?
        _ = loop.rx.connectUDP(host: "127.0.0.1", port: port).subscribe(onSuccess: { client = $0 })
        while client == nil { loop.runOnce() }
        var datagrams: [String] = []
        var ended = false
        _ = client!.rx.datagrams.subscribe(onNext: { datagrams.append($0.bytes.string) }, onError: { _ in ended = true }, onCompleted: { ended = true })

        // Sends go out; the ICMP port unreachable they provoke fails a later
        // send (or reaches the error handler through a receive).
        var sendResults: [String] = []
        var server: UDPSocket?
        var attempts = 0
        func refusals() -> Int {
            sendResults.filter { $0 == "ECONNREFUSED" }.count + reported.names.filter { $0 == "ECONNREFUSED" }.count
        }
        func send(_ text: String, then next: @escaping () -> Void) {
            attempts += 1
            _ = client!.send(ByteBuffer(string: text)).subscribe(
                onCompleted: {
                    sendResults.append("sent")
                    next()
                },
                onError: { error in
                    sendResults.append((error as? UVError)?.name ?? "\(error)")
                    next()
                })
        }
        func after(_ milliseconds: Int, _ body: @escaping () -> Void) {
            _ = loop.rx.timer(after: .milliseconds(milliseconds)).subscribe(onCompleted: body)
        }
        // Until one refusal is seen (bounded).
        func provokeRefusal() {
            if refusals() > 0 || attempts >= 20 {
                answerOnThatPort()
                return
            }
            send("lost") { after(5, provokeRefusal) }
        }
        // Someone listens on that port again and answers; the client sends
        // until an answer arrives (bounded).
        func answerOnThatPort() {
            _ = loop.rx.bindUDP(host: "127.0.0.1", port: port).subscribe(onSuccess: { answering in
                server = answering
                _ = answering.rx.datagrams.subscribe(onNext: { datagram in
                    _ = answering.send(ByteBuffer(string: "answer"), to: datagram.sender).subscribe()
                })
                sendUntilAnswered()
            })
        }
        func sendUntilAnswered() {
            if !datagrams.isEmpty || attempts >= 60 {
                client?.close()
                server?.close()
                return
            }
            send("found") { after(10, sendUntilAnswered) }
        }
        provokeRefusal()
        runLoop()
        XCTAssertNotNil(server)
        XCTAssertEqual(sendResults.first, "sent")
        XCTAssertGreaterThanOrEqual(refusals(), 1, "sends \(sendResults), reported \(reported.names)")
        XCTAssertEqual(datagrams.first, "answer")
        // datagrams ended only because the socket closed.
        XCTAssertTrue(ended)
        client = nil
        server = nil
    }

    func testBroadcastWithoutTheOption_FailsWithEACCES() {
        let socket = bound()
        var failure: UVError?
        // Fails in the kernel before anything is sent.
        _ = socket.send(ByteBuffer(string: "x"), to: try! SocketAddress(ip: "255.255.255.255", port: 9)).subscribe(onError: {
            failure = $0 as? UVError
            socket.close()
        })
        runLoop()
        XCTAssertEqual(failure?.code, .permissionDenied)
        XCTAssertEqual(failure?.operation, "uv_udp_send")
    }

    func testReusePort_TwoSocketsShareAPort() {
        let first = bound(UDPOptions(reusePort: true))
        let port = first.localAddress!.port
        var second: UDPSocket?
        var withoutOption: UVError?
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: port, options: UDPOptions(reusePort: true)).subscribe(onSuccess: { second = $0 })
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: port).subscribe(onFailure: { withoutOption = $0 as? UVError })
        loop.runNoWait()
        XCTAssertEqual(second?.localAddress?.port, port)
        XCTAssertEqual(withoutOption?.code, .addressInUse)
        first.close()
        second?.close()
        second = nil
        runLoop()
    }

    func testSendWithoutAPeer_FailsOnAnUnconnectedSocket() {
        let socket = bound()
        var failure: UVError?
        _ = socket.send(ByteBuffer(string: "x")).subscribe(onError: {
            failure = $0 as? UVError
            socket.close()
        })
        runLoop()
        XCTAssertEqual(failure?.code, .destinationAddressRequired)
    }

    func testTwoReceivers_TheSecondGetsEBUSY() {
        let socket = bound()
        var failure: UVError?
        let first = socket.rx.datagrams.subscribe()
        _ = socket.rx.datagrams.subscribe(onError: { failure = $0 as? UVError })
        XCTAssertEqual(failure?.code, .busy)
        first.dispose()
        XCTAssertFalse(socket.isClosed, "ending datagrams leaves the socket open")
        socket.close()
        runLoop()
    }
}
