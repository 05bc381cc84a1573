import RxUV
import RxUVHTTP
import Synchronization

/// The answers `StaticFiles` made lately for a whole file (200, no `Range`,
/// no `If-Modified-Since`), by path: a file asked for again gets the
/// response made for it, whose fields (type, `Last-Modified`) and head
/// lines were written once, as long as the open file handed out is the one
/// the answer was made for (`OpenFileCache` opens it again after a second,
/// and the next ask then makes a new answer). At most `capacity` answers
/// are kept; each holds its open file, so past the capacity one is let go
/// to keep another. Safe from any thread, shared by every loop.
final class WholeFileAnswers: Sendable {
    private struct Answer {
        let file: OpenFile
        let response: HTTPServerResponse
    }

    /// The most answers kept.
    let capacity: Int
    private let answers = Mutex<[String: Answer]>([:])

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The answer made for `file`, if it is the file kept for its path.
    func answer(for file: OpenFile) -> HTTPServerResponse? {
        answers.withLock { answers in
            guard let kept = answers[file.path], kept.file === file else { return nil }
            return kept.response
        }
    }

    /// Keeps `response` as the answer for `file`, in place of any made for
    /// an earlier open of its path.
    func keep(_ response: HTTPServerResponse, for file: OpenFile) {
        // What is let go is released after the lock: an open file closes
        // when its last holder goes.
        let dropped = answers.withLock { answers -> Answer? in
            let replaced = answers.updateValue(Answer(file: file, response: response), forKey: file.path)
            guard replaced == nil, answers.count > capacity, let other = answers.first(where: { $0.key != file.path })?.key else {
                return replaced
            }
            return answers.removeValue(forKey: other)
        }
        _ = dropped
    }
}
