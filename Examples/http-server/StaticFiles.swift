import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// The files under a root folder, as `GET /static/PATH` serves them: the
/// type by extension, `Last-Modified` and `If-Modified-Since` (304),
/// `Range` (206, or 416 when it cannot be met). Files are kept open in an
/// `OpenFileCache` (a file asked for again within a second costs no trip
/// to libuv's thread pool) and sent with `sendfile(2)` from the page cache
/// after the head. A path with a `..` or `.` segment, a hidden name or a
/// NUL is not served (404), nor is anything but a regular file; a file the
/// server may not read is 403.
struct StaticFiles: Sendable {
    let root: String
    /// The files opened lately, shared by every loop.
    let openFiles = OpenFileCache()

    func answer(_ request: HTTPServerRequest) -> Single<HTTPServerResponse> {
        guard let path = path(of: request.parameters["*"] ?? "") else {
            return .error(HTTPError(.notFound))
        }
        // Most asks: a file opened lately, answered at once.
        if let file = openFiles.cachedFile(at: path) {
            return .just(respond(to: request.head, file: file))
        }
        return openFiles.file(at: path, on: request.loop)
            .catch { error in
                switch (error as? UVError)?.code {
                case .noSuchFileOrDirectory?, .notADirectory?, .isADirectory?, .invalidArgument?: throw HTTPError(.notFound)
                case .permissionDenied?: throw HTTPError(.forbidden)
                default: throw error
                }
            }
            .map { file in respond(to: request.head, file: file) }
    }

    /// The path under `root` of `relative`, or `nil` when it is not served:
    /// empty, a segment that starts with `.` (`..`, `.`, a hidden name), a
    /// NUL. Empty segments (`a//b`) are dropped.
    private func path(of relative: String) -> String? {
        var path = root
        var segmentStart = true
        var segments = 0
        for byte in relative.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                segmentStart = true
                continue
            case 0:
                return nil
            case UInt8(ascii: ".") where segmentStart:
                return nil
            default:
                if segmentStart {
                    path.append("/")
                    segments += 1
                    segmentStart = false
                }
                path.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return segments > 0 ? path : nil
    }

    /// The answer to `request` for `file`: 200, 206, 304 or 416.
    private func respond(to request: HTTPRequest, file: OpenFile) -> HTTPServerResponse {
        let (path, status) = (file.path, file.status)
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
            return HTTPServerResponse(headerFields: fields, body: .file(file, range: 0..<size))
        case .part(let range):
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
            return HTTPServerResponse(status: .partialContent, headerFields: fields, body: .file(file, range: range))
        case .unsatisfiable:
            fields[.contentRange] = "bytes */\(size)"
            return HTTPServerResponse(status: .rangeNotSatisfiable, headerFields: fields)
        }
    }

    /// The media type of a name's extension; bytes for any other.
    static func type(of path: String) -> String {
        // The extension: the bytes after the last `.` of the last segment.
        var suffix: [UInt8] = []
        var found = false
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") {
                found = true
                break
            }
            if byte == UInt8(ascii: "/") || suffix.count == 4 { break }
            suffix.append(byte | 0x20) // ASCII lower case (a digit is unchanged)
        }
        guard found else { return "application/octet-stream" }
        return switch String(decoding: suffix.reversed(), as: UTF8.self) {
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
