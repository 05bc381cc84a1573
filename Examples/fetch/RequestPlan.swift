import ArgumentParser
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

/// What every request of a run shares, as the flags say: the method, the
/// header fields and the time it may take.
struct RequestPlan: Sendable {
    /// `-X`, else `POST` with a body and `GET` without.
    let method: HTTPRequest.Method
    /// The `-H` fields with a value, and `Content-Type:
    /// application/x-www-form-urlencoded` with a body unless `-H` names one.
    let headerFields: HTTPFields
    /// `-m`: the whole exchange, the body's end included.
    let maxTime: Duration?

    /// The request for `url`; `HTTPClientError.invalidRequest` (exit 1)
    /// for a URL that is not an absolute `http` or `https` one.
    func request(for url: String) throws(FetchFailure) -> HTTPRequest {
        do {
            return try HTTPRequest(method: method, url: url, headerFields: headerFields)
        } catch {
            throw FetchFailure(error)
        }
    }
}

/// `-H` lines: `Name: value` adds a field (a name given twice is sent
/// twice); `Name:` with nothing after it removes one the client would
/// add (`User-Agent`, `Accept`), as curl does.
struct HeaderLines: Sendable {
    /// The fields with a value, in order.
    var fields = HTTPFields()
    /// The names given without a value.
    var removed: Set<HTTPField.Name> = []

    /// Parses `lines`; throws for a line without `:` or with a name that
    /// is not a token.
    init(_ lines: [String]) throws {
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw ValidationError("-H \"\(line)\" is not \"Name: value\"")
            }
            guard let name = HTTPField.Name(String(line[..<colon])) else {
                throw ValidationError("-H \"\(line)\": \"\(line[..<colon])\" is not a field name")
            }
            let value = line[line.index(after: colon)...].trimmingBlanks
            if value.isEmpty {
                removed.insert(name)
            } else {
                fields.append(HTTPField(name: name, value: value))
            }
        }
    }
}

/// Where the request's body comes from: `-d` (joined with `&`, as curl
/// joins them), `--data-binary STRING`, `--data-binary @FILE` or
/// `--data-binary @-` (standard input).
enum BodySource: Sendable, Equatable {
    case none
    case string(String)
    case file(String)
    case standardInput

    /// The source the flags give.
    init(data: [String], dataBinary: String?) {
        if let dataBinary {
            if dataBinary == "@-" {
                self = .standardInput
            } else if dataBinary.hasPrefix("@") {
                self = .file(String(dataBinary.dropFirst()))
            } else {
                self = .string(dataBinary)
            }
        } else if data.isEmpty {
            self = .none
        } else {
            self = .string(data.joined(separator: "&"))
        }
    }

    /// The body, ready to send, read on `loop`: a file opened
    /// (`loop.rx.openFile`, then sent from the file), standard input read
    /// whole (so that it goes with a `Content-Length`, as curl sends it).
    /// Fails with exit 26 when the file or standard input cannot be read.
    func load(on loop: Loop) async throws(FetchFailure) -> HTTPClientRequestBody {
        do {
            switch self {
            case .none:
                return .empty
            case .string(let string):
                return .string(string)
            case .file(let path):
                let file = try await loop.rx.openFile(path: path).value
                return .file(file, range: 0..<Int64(file.status.size))
            case .standardInput:
                return .bytes(ByteBuffer(concatenating: try await loop.rx.stdin.toArray().value))
            }
        } catch {
            throw FetchFailure.input("\(error)")
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
