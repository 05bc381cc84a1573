import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// The response decoder against h11 (PyPI) as a client, on thousands of
/// responses, valid and malformed: each is accepted by both or refused by
/// both, with the same interim 1xx responses, status, fields and body when
/// accepted (and the same reason phrase, when it is ASCII). The kinds of
/// response where the RFC lets a client choose, and RxUV chooses to refuse
/// (or to accept) where h11 does the other, are named below with the
/// section that allows RxUV's answer; any other disagreement fails the
/// test. The corpus is made by `h11-response-differential.py` beside this
/// file (seeded: the same every run), each case a response to one request
/// whose method it names, then the end of the input; every case is decoded
/// whole and in random cuts, and the named ones split at every byte. The
/// sibling of `HTTPRequestDecoderDifferentialTests`.
final class HTTPResponseDecoderDifferentialTests: BridgeTestCase {
    /// Where RxUV and h11 may differ, and the RFC section that allows
    /// RxUV's answer: when RxUV refuses for `reason` and h11 accepts, on a
    /// response that `applies` to.
    private struct Allowed: Sendable {
        let reason: String
        let section: String
        var applies: @Sendable ([UInt8]) -> Bool = { _ in true }
    }

    private static let allowedDisagreements: [Allowed] = [
        Allowed(
            reason: "obsolete line folding",
            section: "RFC 9112 §5.2: a gateway MAY refuse obs-fold in a response with 502; RxUV refuses, h11 replaces it with SP"),
        Allowed(reason: "HTTP version", section: "RFC 9112 §2.3: RxUV speaks HTTP/1.0 and 1.1 only; h11 takes any digits"),
        Allowed(reason: "outside 100–599", section: "RFC 9110 §15: every valid status code is within 100–599; h11 takes up to 999"),
        Allowed(
            reason: "malformed value of", section: "RFC 9110 §5.5: a field value is VCHAR, obs-text, SP and HTAB; h11 also takes DEL (0x7F)",
            applies: { $0.contains(0x7F) }),
        Allowed(
            reason: "malformed reason phrase",
            section: "RFC 9112 §4: a reason phrase is HTAB, SP, VCHAR and obs-text; h11 takes a control byte at its end"),
        Allowed(reason: "Transfer-Encoding in HTTP/1.0", section: "RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 MUST be treated as faulty framing"),
        Allowed(
            reason: "Content-Length and Transfer-Encoding",
            section: "RFC 9112 §6.1: both ought to be handled as an error (a smuggling shape, §11.2); h11 uses Transfer-Encoding"),
        Allowed(
            reason: "malformed chunk extension",
            section: "RFC 9112 §7.1.1: a chunk extension is tokens and quoted strings; h11 skips extensions unparsed"),
    ]

    private struct Case {
        let name: String
        let method: HTTPRequest.Method
        let data: [UInt8]
        let verdict: [String: Any]
    }

    private func corpus() throws -> [Case] {
        let (status, data) = try runPython([besideTest("h11-response-differential.py")])
        XCTAssertEqual(status, 0, "h11-response-differential.py failed (is h11 installed? scripts/setup.sh installs it)")
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let verdict = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let bytes = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(verdict["data"] as? String)))
            let method = try XCTUnwrap(HTTPRequest.Method(try XCTUnwrap(verdict["method"] as? String)))
            return Case(name: verdict["name"] as? String ?? "?", method: method, data: Array(bytes), verdict: verdict)
        }
    }

    /// Our verdict on the first final response of `chunks`: "accept" with
    /// what we read, "reject:<reason>", or "incomplete".
    private func ours(_ chunks: [ByteBuffer], method: HTTPRequest.Method) -> (String, [String: String]) {
        let decoded = decodeResponses(chunks, methods: [method])
        var informational: [Int] = []
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        for part in decoded.parts {
            switch part {
            case .head(let parsed) where parsed.isInformational:
                informational.append(parsed.response.status.code)
            case .head(let parsed):
                head = parsed
                if parsed.body == .none || parsed.body == .switchedProtocol {
                    return ("accept", describe(parsed, informational: informational, body: []))
                }
            case .body(let bytes): body += bytes
            case .end(let last, _):
                body += last
                if let head { return ("accept", describe(head, informational: informational, body: body)) }
            case .switched: break
            }
        }
        if let error = decoded.error as? HTTPParseError { return ("reject:\(error.reason)", [:]) }
        if let error = decoded.error { return ("reject:\(error)", [:]) }
        return ("incomplete", [:])
    }

    private func describe(_ head: HTTPResponseHead, informational: [Int], body: [UInt8]) -> [String: String] {
        // Values as Latin-1, byte for byte (as the corpus writes h11's).
        // Content-Length as one field, as h11 merges identical ones.
        let lengths = head.response.headerFields[values: .contentLength]
        let fields = head.response.headerFields.filter { $0.name != .contentLength }.map { field in
            let value = field.withUnsafeBytesOfValue { String($0.map { Character(UnicodeScalar($0)) }) }
            return "\(field.name.rawName.lowercased()): \(value)"
        }.joined(separator: "\n")
        return [
            "informational": informational.map(String.init).joined(separator: ","), "status": String(head.response.status.code),
            "headers": fields, "body": Data(body).base64EncodedString(),
            "content-length": lengths.first.map { String($0.split(separator: ",").first?.trimmingCharacters(in: .whitespaces) ?? "") } ?? "-",
        ]
    }

    private func theirs(_ verdict: [String: Any]) -> (String, [String: String], reason: String?) {
        guard let kind = verdict["h11"] as? String, kind == "accept" else { return (verdict["h11"] as? String ?? "?", [:], nil) }
        let all = verdict["headers"] as? [[String]] ?? []
        let headers = all.filter { $0[0] != "content-length" }.map { "\($0[0]): \($0[1])" }.joined(separator: "\n")
        let length = all.first { $0[0] == "content-length" }?[1] ?? "-"
        let informational = (verdict["informational"] as? [Int] ?? []).map(String.init).joined(separator: ",")
        return (
            "accept",
            [
                "informational": informational, "status": String(verdict["status"] as? Int ?? 0), "headers": headers,
                "body": verdict["body"] as? String ?? "", "content-length": length,
            ],
            verdict["reason"] as? String
        )
    }

    func testDifferential_AgainstH11() throws {
        let cases = try corpus()
        var generator = SeededGenerator(seed: 9112)
        var agreed = 0
        var allowed: [String: Int] = [:]
        var disagreements: [String] = []
        for item in cases {
            let (theirVerdict, theirFields, theirReason) = theirs(item.verdict)
            let named = !item.name.contains("random")
            var cutsList: [[Int]] = [[]]
            for _ in 0..<3 {
                cutsList.append((0..<Int(generator.next() % 4 + 1)).map { _ in Int(generator.next() % UInt64(max(item.data.count, 1))) }.sorted())
            }
            if named { cutsList += (1..<max(item.data.count, 1)).map { [$0] } }
            var verdicts = Set<String>()
            var first: (String, [String: String])?
            for cuts in cutsList {
                let result = ours(split(item.data, at: cuts), method: item.method)
                let fields = result.1.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
                verdicts.insert(result.0 == "accept" ? "accept:" + fields : result.0)
                if first == nil { first = result }
            }
            guard let (ourVerdict, ourFields) = first else { continue }
            XCTAssertEqual(verdicts.count, 1, "\(item.name): the cuts changed the verdict: \(verdicts)")
            let ourKind = ourVerdict.hasPrefix("reject") ? "reject" : ourVerdict
            if ourKind == theirVerdict {
                if ourKind == "accept", ourFields != theirFields {
                    disagreements.append("\(item.name): both accept, but RxUV read \(ourFields), h11 \(theirFields)")
                } else if ourKind == "accept", let theirReason, theirReason.utf8.allSatisfy({ $0 < 0x80 }),
                    let reason = decodeResponses([ByteBuffer(item.data)], methods: [item.method]).parts.lazy.compactMap(Self.finalHead).first?
                        .response.status.reasonPhrase, reason != theirReason
                {
                    disagreements.append("\(item.name): reason phrase \(reason.debugDescription), h11 \(theirReason.debugDescription)")
                } else {
                    agreed += 1
                }
                continue
            }
            let rule = Self.allowedDisagreements.first { rule in
                rule.applies(item.data) && ourKind == "reject" && theirVerdict == "accept" && ourVerdict.contains(rule.reason)
            }
            if let rule {
                allowed[rule.section, default: 0] += 1
            } else {
                disagreements.append("\(item.name): RxUV \(ourVerdict), h11 \(theirVerdict) \(item.verdict["error"] ?? "")")
            }
        }
        print(
            "HTTP response differential against h11: \(cases.count) responses, \(agreed) agreed, "
                + "\(allowed.values.reduce(0, +)) differ where the RFC allows both, \(disagreements.count) disagreements:")
        for (section, count) in allowed.sorted(by: { $0.key < $1.key }) { print("  \(count) × \(section)") }
        XCTAssertGreaterThan(cases.count, 3000)
        XCTAssertEqual(disagreements, [], "disagreements the RFC does not settle")
    }

    private static func finalHead(_ part: HTTPClientResponsePart) -> HTTPResponseHead? {
        if case .head(let head) = part, !head.isInformational { return head }
        return nil
    }
}
