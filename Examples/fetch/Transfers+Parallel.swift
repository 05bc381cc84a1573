import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient

/// What became of one URL under `--parallel`: a response whose body was
/// read to its end (and counted), or a failure.
enum Outcome: Sendable {
    case answered(status: Int, bytes: Int)
    case failed(FetchFailure)
}

/// One line of `--parallel`'s results, with where its URL stood in the
/// input.
struct ParallelResult: Sendable {
    /// The URL's place in the input, from 0.
    let index: Int
    /// The URL as given.
    let url: String
    /// What became of it.
    let outcome: Outcome
    /// The exit code it stands for: 0, 22 for a status of 400 or more
    /// with `-f`, or its failure's.
    let exitCode: Int32

    /// `STATUS BYTES URL` or `ERROR REASON URL`.
    var line: String {
        switch outcome {
        case .answered(let status, let bytes): "\(status) \(bytes) \(url)\n"
        case .failed(let failure): "ERROR \(failure.reason) \(url)\n"
        }
    }
}

extension Transfers {
    /// `--parallel`: every URL of `urls` fetched, at most `maxInFlight` at
    /// once (`merge(maxConcurrent:)`; the client keeps as many connections
    /// to a host), each body read to its end and counted, not written.
    /// Writes one line per URL as it finishes (`STATUS BYTES URL`, or
    /// `ERROR REASON URL`) and returns 0 when every one succeeded, else
    /// the exit code of the first in the input that did not (26 when the
    /// URLs cannot be read, 23 when the lines cannot be written).
    func fetchAll(_ urls: Observable<String>, maxInFlight: Int, into output: Output) async -> Int32 {
        let results = urls.enumerated()
            .map { item in
                outcome(of: item.element).map { outcome in
                    ParallelResult(index: item.index, url: item.element, outcome: outcome, exitCode: exitCode(of: outcome))
                }.asObservable()
            }
            .merge(maxConcurrent: maxInFlight)
        var firstFailure: ParallelResult?
        do {
            for try await result in results.values {
                try await output.write(result.line)
                if case .failed(let failure) = result.outcome {
                    logger.debug("(\(failure.exitCode)) \(result.url): \(failure.message)")
                }
                if result.exitCode != 0, result.index < firstFailure?.index ?? .max {
                    firstFailure = result
                }
            }
        } catch let failure as FetchFailure {
            logger.error("(\(failure.exitCode)) \(failure.message)")
            return failure.exitCode
        } catch {
            let failure = FetchFailure.input("the URLs: \(error)")
            logger.error("(\(failure.exitCode)) \(failure.message)")
            return failure.exitCode
        }
        return firstFailure?.exitCode ?? 0
    }

    /// The request for `url` sent, and its response's body counted to its
    /// end (`response.body.bytes`, reduced); a failure is an outcome too,
    /// so that one URL's failure does not end the others.
    private func outcome(of url: String) -> Single<Outcome> {
        let request: HTTPRequest
        do {
            request = try plan.request(for: url)
        } catch {
            return .just(.failed(error))
        }
        return client.rx.send(request, body: body, timeout: plan.maxTime)
            .flatMap { response in
                response.body.bytes.reduce(0) { count, piece in count + piece.count }.asSingle()
                    .map { Outcome.answered(status: response.status.code, bytes: $0) }
                    .catch { .just(.failed(FetchFailure($0, afterHead: true))) }
            }
            .catch { .just(.failed(FetchFailure($0))) }
    }

    private func exitCode(of outcome: Outcome) -> Int32 {
        switch outcome {
        case .answered(let status, _): failOnError && status >= 400 ? 22 : 0
        case .failed(let failure): failure.exitCode
        }
    }
}
