import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// The files under a root folder, as `GET /static/PATH` serves them: the
/// type by extension, `Last-Modified` and `If-Modified-Since` (304),
/// `Range` (206, or 416 when it cannot be met), the bytes read from
/// libuv's thread pool a chunk at a time. A path with a `..` or `.`
/// segment, a hidden name or a NUL is not served (404), nor is anything
/// but a regular file.
struct StaticFiles: Sendable {
    let root: String

    func answer(_ request: HTTPServerRequest) -> Single<HTTPServerResponse> {
        let relative = request.parameters["*"] ?? ""
        let segments = relative.split(separator: "/")
        guard !segments.isEmpty, segments.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") }) else {
            return .error(HTTPError(.notFound))
        }
        let path = root + "/" + segments.joined(separator: "/")
        return request.loop.rx.stat(path: path).map { status in
            guard status.kind == .regular else { throw HTTPError(.notFound) }
            return respond(to: request.head, path: path, status: status)
        }
    }

    private func respond(to request: HTTPRequest, path: String, status: FileStatus) -> HTTPServerResponse {
        let modified = Int64(status.modificationTime.components.seconds)
        let size = Int64(status.size)
        var fields: HTTPFields = [
            .contentType: Self.type(of: path),
            .lastModified: HTTPDate.format(secondsSince1970: modified),
            .acceptRanges: "bytes",
        ]
        if let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.parse), modified <= since {
            return HTTPServerResponse(status: .notModified, headerFields: fields)
        }
        switch ByteRange.parse(request.headerFields[.range], size: size) {
        case .whole:
            return HTTPServerResponse(headerFields: fields, body: .file(path: path, range: 0..<size))
        case .part(let range):
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
            return HTTPServerResponse(status: .partialContent, headerFields: fields, body: .file(path: path, range: range))
        case .unsatisfiable:
            fields[.contentRange] = "bytes */\(size)"
            return HTTPServerResponse(status: .rangeNotSatisfiable, headerFields: fields)
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
