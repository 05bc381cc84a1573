import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// The files under a root folder, as `GET /static/PATH` serves them: the
/// type by extension, `Last-Modified` and `If-Modified-Since` (304),
/// `Range` (206, or 416 when it cannot be met). A file up to
/// `wholeFileLimit` is read whole in one trip to libuv's thread pool and
/// sent with its head in one write; a larger one a chunk at a time, the
/// next chunk read once the last is written. A path with a `..` or `.`
/// segment, a hidden name or a NUL is not served (404), nor is anything
/// but a regular file.
struct StaticFiles: Sendable {
    let root: String
    /// Files up to this size are read whole (`loop.rx.readFile`).
    var wholeFileLimit = 256 * 1024

    func answer(_ request: HTTPServerRequest) -> Single<HTTPServerResponse> {
        let relative = request.parameters["*"] ?? ""
        let segments = relative.split(separator: "/")
        guard !segments.isEmpty, segments.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") }) else {
            return .error(HTTPError(.notFound))
        }
        let path = root + "/" + segments.joined(separator: "/")
        let loop = request.loop
        return loop.rx.stat(path: path).flatMap { status in
            guard status.kind == .regular else { throw HTTPError(.notFound) }
            let response = respond(to: request.head, path: path, status: status)
            guard let range = response.range, request.head.method != .head, status.size <= UInt64(wholeFileLimit) else {
                return .just(response.answer)
            }
            // Small: one more trip to the pool for the bytes, then one write.
            return loop.rx.readFile(path: path, maxSize: wholeFileLimit).map { bytes in
                var reader = ByteBuffer.Reader(bytes)
                reader.moveReaderIndex(forwardBy: min(Int(range.lowerBound), bytes.count))
                guard let part = reader.readBytes(range.count) else { throw HTTPError(.internalServerError, message: "\(path) changed while read") }
                var answer = response.answer
                answer.body = .bytes(part)
                return answer
            }
        }
    }

    /// An answer, and the range of the file its body is (none for 304, 416).
    private struct Answer {
        var answer: HTTPServerResponse
        var range: Range<Int64>?
    }

    private func respond(to request: HTTPRequest, path: String, status: FileStatus) -> Answer {
        let modified = Int64(status.modificationTime.components.seconds)
        let size = Int64(status.size)
        var fields: HTTPFields = [
            .contentType: Self.type(of: path),
            .lastModified: HTTPDate.format(secondsSince1970: modified),
            .acceptRanges: "bytes",
        ]
        if let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.parse), modified <= since {
            return Answer(answer: HTTPServerResponse(status: .notModified, headerFields: fields))
        }
        switch ByteRange.parse(request.headerFields[.range], size: size) {
        case .whole:
            return Answer(answer: HTTPServerResponse(headerFields: fields, body: .file(path: path, range: 0..<size)), range: 0..<size)
        case .part(let range):
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
            return Answer(answer: HTTPServerResponse(status: .partialContent, headerFields: fields, body: .file(path: path, range: range)), range: range)
        case .unsatisfiable:
            fields[.contentRange] = "bytes */\(size)"
            return Answer(answer: HTTPServerResponse(status: .rangeNotSatisfiable, headerFields: fields))
        }
    }

    /// The media type of a name's extension; bytes for any other.
    static func type(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let suffix = name.split(separator: ".").count > 1 ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        return switch suffix {
        case "html", "htm": "text/html; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "svg": "image/svg+xml"
        case "wasm": "application/wasm"
        default: "application/octet-stream"
        }
    }
}
