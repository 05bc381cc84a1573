import HTTPTypes
import Logging
import RxCore
import RxUV
import RxUVHTTPClient

/// A run's transfers: the client, the request every URL gets, its body,
/// and what is done with each answer. All of it runs on the loop's
/// thread (inside `loop.run { … }`).
struct Transfers: Sendable {
    /// The client, on the run's loop.
    let client: HTTPClient
    /// The method, the fields and `-m`.
    let plan: RequestPlan
    /// The body every request sends (bytes and files can be sent again).
    let body: HTTPClientRequestBody
    /// `-i`: the status line and the header fields before the body.
    let include: Bool
    /// `-f`: a status of 400 or more is a failure (exit 22), its body not written.
    let failOnError: Bool
    /// `-v` shows each request's and response's head at `debug`.
    let logger: Logger

    /// Fetches `url` into `output`: sends the request, waits for the
    /// response's head, writes it with `-i`, then writes the body as it
    /// arrives, each piece written before the next is read
    /// (`response.body.values`, an `AsyncSequence` with backpressure: a
    /// slow output slows the server, it does not fill memory). With
    /// `outputPath` (`-o`), the file is opened once the head has come
    /// (and not at all when `-f` refuses the status).
    func fetch(_ url: String, into output: Output, outputPath: String? = nil) async throws(FetchFailure) {
        let request = try plan.request(for: url)
        logHead(of: request)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, body: body, timeout: plan.maxTime)
        } catch {
            throw FetchFailure(error)
        }
        logger.debug("< \(Self.statusLine(of: response))")
        for field in response.headerFields {
            logger.debug("< \(field.name.rawName): \(field.value)")
        }
        if failOnError, response.status.code >= 400 {
            // The body is let go unread: the client closes the connection.
            throw FetchFailure.status(response.status.code)
        }
        if let outputPath {
            try output.redirect(to: outputPath)
        }
        if include {
            try await output.write(Self.headText(of: response))
        }
        var pieces = response.body.values.makeAsyncIterator()
        while true {
            let piece: ByteBuffer?
            do {
                piece = try await pieces.next()
            } catch {
                throw FetchFailure(error, afterHead: true)
            }
            guard let piece else { return }
            try await output.write(piece)
        }
    }

    /// `-v`: the request line and the fields the request carries (the
    /// client adds `Host`, the defaults and the body's framing).
    private func logHead(of request: HTTPRequest) {
        logger.debug("> \(request.method) \(request.path ?? "/") HTTP/1.1")
        for field in request.headerFields {
            logger.debug("> \(field.name.rawName): \(field.value)")
        }
    }

    /// `HTTP/1.1 200 OK`, with the reason phrase as the server sent it.
    static func statusLine(of response: HTTPClientResponse) -> String {
        (response.majorVersion == 2 ? "HTTP/2" : "HTTP/1.\(response.minorVersion)") + " \(response.status.code) \(response.status.reasonPhrase)"
    }

    /// What `-i` writes: the status line and the fields in the order they
    /// came, each line ending in CR LF, then an empty line, as curl writes
    /// them.
    static func headText(of response: HTTPClientResponse) -> String {
        var text = statusLine(of: response) + "\r\n"
        for field in response.headerFields {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        return text + "\r\n"
    }
}
