import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// The decoder against h11, a strict HTTP/1.1 state machine (PyPI), on
/// thousands of requests, valid and malformed: each is accepted by both or
/// rejected by both, with the same method, target, Host, fields and body
/// when accepted. The few kinds of request where the RFC lets a server
/// choose, and RxUV chooses to refuse (or to accept) where h11 does the
/// other, are named below with the section that allows both; any other
/// disagreement fails the test. The corpus is made by
/// `h11-differential.py` beside this file (seeded: the same every run);
/// every case is decoded whole and in random cuts, and the named ones split
/// at every byte.
final class HTTPRequestDecoderDifferentialTests: BridgeTestCase {
    /// Where RxUV and h11 may differ, and the RFC section that allows RxUV's
    /// answer: when RxUV refuses for `reason` (or accepts, for an empty
    /// `reason`) and h11 does the other, on a request that `applies` to.
    private struct Allowed: Sendable {
        let reason: String
        let section: String
        var applies: @Sendable ([UInt8]) -> Bool = { _ in true }
    }

    private static let allowedDisagreements: [Allowed] = [
        Allowed(reason: "obsolete line folding", section: "RFC 9112 §5.2: a server MUST reject obs-fold or replace it with SP; RxUV rejects, h11 replaces"),
        Allowed(reason: "more than one Content-Length", section: "RFC 9112 §6.3 (5): identical Content-Length values MAY be merged or rejected; RxUV rejects"),
        Allowed(reason: "malformed Content-Length", section: "RFC 9112 §6.3 (5): a list of identical values MAY be merged or rejected; RxUV rejects"),
        Allowed(
            reason: "Content-Length and Transfer-Encoding",
            section: "RFC 9112 §6.1: a server MAY reject both (a smuggling shape, §11.2); RxUV rejects, h11 uses Transfer-Encoding"),
        Allowed(reason: "Transfer-Encoding in HTTP/1.0", section: "RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 MUST be treated as faulty framing; RxUV refuses it"),
        Allowed(reason: "HTTP/", section: "RFC 9112 §2.3, RFC 9110 §15.6.6: a major version other than 1 is answered 505; h11 takes any digit"),
        Allowed(reason: "", section: "RFC 9112 §2.2: a server SHOULD ignore empty lines before the request line; h11 refuses them"),
        Allowed(
            reason: "no Host", section: "RFC 9112 §3.2, RFC 9110 §6.2: HTTP/1.x past 1.1 is answered as 1.1, which needs Host; h11 asks it of 1.1 only",
            applies: { bytes in !bytes.starts(with: Array("HTTP/1.1".utf8)) }),
        Allowed(
            reason: "malformed value of", section: "RFC 9110 §5.5: a field value is VCHAR, obs-text, SP and HTAB; h11 also takes DEL (0x7F)",
            applies: { $0.contains(0x7F) }),
        Allowed(reason: "malformed Host", section: "RFC 9110 §7.2: Host is uri-host [\":\" port] (RFC 3986 §3.2.2); h11 takes any value"),
        Allowed(
            reason: "malformed chunk extension",
            section: "RFC 9112 §7.1.1: a chunk extension is tokens and quoted strings; h11 skips extensions unparsed"),
        Allowed(
            reason: "bare CR", section: "RFC 9112 §7.1: a chunk line ends with CRLF; h11 skips what follows a chunk size unparsed",
            applies: { bytes in bytes.split(separator: 0x0A).contains { line in line.dropLast().contains(0x0D) && line.first.map(HTTPSyntaxTest.isHex) == true } }),
    ]

    private struct Case {
        let name: String
        let data: [UInt8]
        let verdict: [String: Any]
    }

    private func corpus() throws -> [Case] {
        let (status, data) = try runPython([besideTest("h11-differential.py")])
        XCTAssertEqual(status, 0, "h11-differential.py failed (is h11 installed? scripts/setup.sh installs it)")
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let verdict = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let bytes = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(verdict["data"] as? String)))
            return Case(name: verdict["name"] as? String ?? "?", data: Array(bytes), verdict: verdict)
        }
    }

    /// Our verdict on the first request of `chunks`: "accept" with what we
    /// read, or "reject:<reason>".
    private func ours(_ chunks: [ByteBuffer]) -> (String, [String: String]) {
        let decoded = decodeAll(chunks)
        var head: HTTPRequestHead?
        var body: [UInt8] = []
        for part in decoded.parts {
            switch part {
            case .head(let parsed):
                head = parsed
                if parsed.body == .none { return ("accept", describe(parsed, body: [])) }
            case .body(let bytes): body += bytes
            case .end(let last, _):
                body += last
                if let head { return ("accept", describe(head, body: body)) }
            }
        }
        if let error = decoded.error as? HTTPParseError { return ("reject:\(error.reason)", [:]) }
        return ("reject:\(decoded.error.map { "\($0)" } ?? "incomplete")", [:])
    }

    private func describe(_ head: HTTPRequestHead, body: [UInt8]) -> [String: String] {
        // Values as Latin-1, byte for byte (as the corpus writes h11's).
        let fields = head.request.headerFields.map { field in
            let value = field.withUnsafeBytesOfValue { String($0.map { Character(UnicodeScalar($0)) }) }
            return "\(field.name.canonicalName): \(value)"
        }.joined(separator: "\n")
        return [
            "method": head.request.method.rawValue, "target": head.request.path ?? "", "host": head.request.authority ?? "-",
            "headers": fields, "body": Data(body).base64EncodedString(),
        ]
    }

    private func theirs(_ verdict: [String: Any]) -> (String, [String: String]) {
        guard verdict["h11"] as? String == "accept" else { return ("reject", [:]) }
        let headers = (verdict["headers"] as? [[String]] ?? []).map { "\($0[0]): \($0[1])" }.joined(separator: "\n")
        return (
            "accept",
            [
                "method": verdict["method"] as? String ?? "", "target": verdict["target"] as? String ?? "",
                "host": verdict["host"] as? String ?? "-", "headers": headers, "body": verdict["body"] as? String ?? "",
            ]
        )
    }

    func testDifferential_AgainstH11() throws {
        let cases = try corpus()
        var generator = SeededGenerator(seed: 9112)
        var agreed = 0
        var allowed: [String: Int] = [:]
        var disagreements: [String] = []
        for item in cases {
            let (theirVerdict, theirFields) = theirs(item.verdict)
            let named = !item.name.contains("random")
            var cutsList: [[Int]] = [[]]
            for _ in 0..<3 {
                cutsList.append((0..<Int(generator.next() % 4 + 1)).map { _ in Int(generator.next() % UInt64(max(item.data.count, 1))) }.sorted())
            }
            if named { cutsList += (1..<item.data.count).map { [$0] } }
            var verdicts = Set<String>()
            var first: (String, [String: String])?
            for cuts in cutsList {
                let result = ours(split(item.data, at: cuts))
                verdicts.insert(result.0.hasPrefix("accept") ? "accept:" + result.1.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";") : "reject")
                if first == nil { first = result }
            }
            guard let (ourVerdict, ourFields) = first else { continue }
            XCTAssertEqual(verdicts.count, 1, "\(item.name): the cuts changed the verdict: \(verdicts)")
            let ourKind = ourVerdict.hasPrefix("accept") ? "accept" : "reject"
            if ourKind == theirVerdict {
                if ourKind == "accept", ourFields != theirFields {
                    disagreements.append("\(item.name): both accept, but RxUV read \(ourFields), h11 \(theirFields)")
                } else {
                    agreed += 1
                }
                continue
            }
            let theirReason = theirVerdict == "reject" ? "reject:\(item.verdict["status"] ?? "")" : "accept"
            let rule = Self.allowedDisagreements.first { rule in
                guard rule.applies(item.data) else { return false }
                return rule.reason.isEmpty
                    ? ourKind == "accept" && (item.verdict["status"] as? Int) == 400 && item.data.first.map { $0 == 0x0D || $0 == 0x0A } == true
                    : ourKind == "reject" && theirVerdict == "accept" && ourVerdict.contains(rule.reason)
            }
            if let rule {
                allowed[rule.section, default: 0] += 1
            } else {
                disagreements.append("\(item.name): RxUV \(ourVerdict), h11 \(theirReason)")
            }
        }
        print("HTTP differential against h11: \(cases.count) requests, \(agreed) agreed, \(allowed.values.reduce(0, +)) differ where the RFC allows both:")
        for (section, count) in allowed.sorted(by: { $0.key < $1.key }) { print("  \(count) × \(section)") }
        XCTAssertGreaterThan(cases.count, 3000)
        XCTAssertEqual(disagreements, [], "disagreements the RFC does not settle")
    }
}

/// Byte classes the allowed disagreements look at.
private enum HTTPSyntaxTest {
    static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
