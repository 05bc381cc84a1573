import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketOpcodeTests: BridgeTestCase {
    func testOpcode_RawValuesAndControl() {
        let table: [(WebSocketOpcode, UInt8, Bool, String)] = [
            (.continuation, 0x0, false, "continuation"), (.text, 0x1, false, "text"), (.binary, 0x2, false, "binary"),
            (.close, 0x8, true, "close"), (.ping, 0x9, true, "ping"), (.pong, 0xA, true, "pong"),
        ]
        XCTAssertEqual(table.count, WebSocketOpcode.allCases.count)
        for (opcode, raw, control, name) in table {
            XCTAssertEqual(opcode.rawValue, raw, name)
            XCTAssertEqual(opcode.isControl, control, name)
            XCTAssertEqual(opcode.description, name)
        }
    }

    func testOpcode_ReservedValuesHaveNoCase() {
        for raw in [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8] {
            XCTAssertNil(WebSocketOpcode(rawValue: raw), "0x\(String(raw, radix: 16))")
        }
    }

    func testReservedBits_KeepsOnlyTheThreeBits() {
        XCTAssertEqual(WebSocketReservedBits(rawValue: 0xFF).rawValue, 0x70)
        XCTAssertEqual(WebSocketReservedBits([.rsv1, .rsv3]).rawValue, 0x50)
        XCTAssertEqual(WebSocketReservedBits.rsv2.rawValue, 0x20)
    }
}
