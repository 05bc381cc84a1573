import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

final class UVErrorTests: BridgeTestCase {
    func testUVError_CodesHaveLibuvNamesAndMessages() {
        let table: [(UVError.Code, String, String)] = [
            (.addressInUse, "EADDRINUSE", "address already in use"),
            (.connectionRefused, "ECONNREFUSED", "connection refused"),
            (.unknownHost, "EAI_NONAME", "unknown node or service"),
            (.endOfFile, "EOF", "end of file"),
            (.socketTypeNotSupported, "ESOCKTNOSUPPORT", "socket type not supported"),
            (.argumentListTooLong, "E2BIG", "argument list too long"),
        ]
        for (code, name, message) in table {
            XCTAssertEqual(code.name, name)
            XCTAssertEqual(code.message, message)
            XCTAssertEqual("\(code)", name)
        }
        let error = UVError(code: .addressInUse, operation: "uv_tcp_bind", address: "127.0.0.1:7000")
        XCTAssertEqual(error.description, "uv_tcp_bind 127.0.0.1:7000: EADDRINUSE (address already in use)")
        XCTAssertEqual(error.shortDescription, "EADDRINUSE (address already in use)")
    }

    func testUVError_MatchesByCodeInCatch() {
        func fail(_ code: UVError.Code) throws {
            throw UVError(code: code, operation: "test")
        }
        do {
            try fail(.addressInUse)
            XCTFail("did not throw")
        } catch let error as UVError where error.code == .addressInUse {
            XCTAssertEqual(error.operation, "test")
        } catch {
            XCTFail("not matched by code: \(error)")
        }
        do {
            try fail(.connectionRefused)
        } catch UVError.Code.addressInUse {
            XCTFail("matched the wrong code")
        } catch UVError.Code.connectionRefused {
            // Matched by the ~= pattern.
        } catch {
            XCTFail("not matched by pattern: \(error)")
        }
        switch UVError.Code.timedOut {
        case .timedOut: break
        default: XCTFail("switch on a code")
        }
    }

    func testUVError_AnUnknownCodeHasANameAndLeaksNothing() {
        let unknown = UVError.Code(rawValue: -123_456)
        XCTAssertEqual(unknown.name, "Unknown system error -123456")
        XCTAssertEqual(unknown.message, "Unknown system error -123456")
        // uv_err_name and uv_strerror allocate a string for a code they do
        // not know and never free it; the _r forms write into our buffer.
        // A leak would be about 2 x 48 bytes per round: 9 MB over 100,000.
        // Under a sanitizer, its allocator's count of live bytes (exact, and
        // blind to ASan's quarantine of freed memory); otherwise resident memory.
        let before = memoryInUse()
        var lengths = 0
        for index in 0..<100_000 {
            let code = UVError.Code(rawValue: -200_000 - Int32(index % 1000))
            lengths += code.name.utf8.count + code.message.utf8.count
        }
        let grown = memoryInUse() - before
        XCTAssertGreaterThan(lengths, 100_000)
        XCTAssertLessThan(grown, 3 << 20, "memory in use grew by \(grown) bytes over 100,000 names and messages")
    }

    func testUVError_AFailedWriteKeepsItsOperationAndAddress() {
        let server = startEchoServer(on: loop)
        var failure: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            UVFaultInjection.inject(UVError.Code.brokenPipe.rawValue, into: "uv_write")
            _ = client.write("x").subscribe(onError: { failure = $0 as? UVError })
            UVFaultInjection.removeAll()
            client.close()
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(failure?.code, .brokenPipe)
        XCTAssertEqual(failure?.operation, "uv_write")
        XCTAssertEqual(failure?.address, "127.0.0.1:\(server.address.port)")
    }
}
