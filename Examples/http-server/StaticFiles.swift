import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// The files under a root folder, as `GET /static/PATH` serves them: the
/// type by extension, `Last-Modified` and `If-Modified-Since` (304),
/// `Range` (206, or 416 when it cannot be met). Files are kept open in an
/// `OpenFileCache` (a file asked for again within a second costs no trip
/// to libuv's thread pool) and sent with `sendfile(2)` from the page cache
/// after the head; the answer for a whole file is made once per open of it
/// (`WholeFileAnswers`). A path with a `..` or `.` segment, a hidden name or a
/// NUL is not served (404), nor is anything but a regular file; a file the
/// server may not read is 403.
struct StaticFiles: Sendable {
    let root: String
    /// The files opened lately, shared by every loop.
    let openFiles = OpenFileCache()
    /// The whole-file answers made for them.
    let wholeFiles = WholeFileAnswers(capacity: 64)

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
        // Built as bytes, made a string once (appending a scalar at a time
        // cost more than the rest of the route).
        var path = Array(root.utf8)
        path.reserveCapacity(path.count + relative.utf8.count + 1)
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
                    path.append(UInt8(ascii: "/"))
                    segments += 1
                    segmentStart = false
                }
                path.append(byte)
            }
        }
        return segments > 0 ? String(decoding: path, as: UTF8.self) : nil
    }

    /// The answer to `request` for `file`: 200, 206, 304 or 416; a 200 to
    /// a request with neither `Range` nor `If-Modified-Since` is the one
    /// made for this open of the file, if there is one.
    private func respond(to request: HTTPRequest, file: OpenFile) -> HTTPServerResponse {
        let conditional = request.headerFields.contains(.ifModifiedSince) || request.headerFields.contains(.range)
        if !conditional, let made = wholeFiles.answer(for: file) {
            return made
        }
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
            let response = HTTPServerResponse(headerFields: fields, body: .file(file, range: 0..<size))
            if !conditional {
                wholeFiles.keep(response, for: file)
            }
            return response
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
        // The extension: the bytes after the last `.` of the last segment,
        // at most 4, lower-cased (ASCII; a digit is unchanged), read from
        // the end into one word.
        var suffix: UInt32 = 0
        var length = 0
        var found = false
        for byte in path.utf8.reversed() {
            if byte == UInt8(ascii: ".") {
                found = true
                break
            }
            if byte == UInt8(ascii: "/") || length == 4 { break }
            suffix |= UInt32(byte | 0x20) << (8 * length)
            length += 1
        }
        guard found else { return "application/octet-stream" }
        func word(_ name: StaticString) -> UInt32 {
            name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }
        return switch suffix {
        case word("html"), word("htm"): "text/html; charset=utf-8"
        case word("txt"): "text/plain; charset=utf-8"
        case word("css"): "text/css; charset=utf-8"
        case word("js"): "text/javascript; charset=utf-8"
        case word("json"): "application/json"
        case word("png"): "image/png"
        case word("jpg"), word("jpeg"): "image/jpeg"
        case word("svg"): "image/svg+xml"
        case word("wasm"): "application/wasm"
        default: "application/octet-stream"
        }
    }
}
