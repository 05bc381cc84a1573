/// The inputs a connection's decoder cut behind the request being
/// answered: pipelined requests (and whatever followed them) wait here, in
/// order, until that request's response is out, so responses leave in the
/// order their requests came. Part of a connection's loop-thread state.
struct HTTPBacklog {
    private var inputs: [HTTPServerInput] = []
    private var start = 0

    /// Nothing waits.
    var isEmpty: Bool { start == inputs.count }

    /// Puts `input` behind the others.
    mutating func append(_ input: HTTPServerInput) {
        inputs.append(input)
    }

    /// Takes the oldest input out; `nil` when none waits. The storage is
    /// kept for the next requests once the last is taken.
    mutating func next() -> HTTPServerInput? {
        guard start < inputs.count else { return nil }
        let input = inputs[start]
        start += 1
        if start == inputs.count {
            inputs.removeAll(keepingCapacity: true)
            start = 0
        }
        return input
    }

    /// Drops every input and the storage (the connection ended).
    mutating func removeAll() {
        inputs = []
        start = 0
    }
}

/// What arrives from a connection's decoder, in order.
enum HTTPServerInput {
    case part(HTTPRequestPart)
    case failed(any Error)
    case ended
}
