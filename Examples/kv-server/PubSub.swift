import RxUV
import Synchronization

/// The channels and patterns clients subscribed to, across every loop.
///
/// PUBLISH finds the receivers under the lock, encodes the message once
/// (once per pattern for pattern subscribers) and hands it to each
/// receiver's `Session.push`, which takes it to that connection's loop. A
/// receiver that does not read is cut off by its connection's output limit,
/// not buffered without end.
final class PubSub: Sendable {
    private struct PatternSubscribers {
        let pattern: GlobPattern
        var sessions: [Int: Session] = [:]
    }

    private struct State {
        var channels: [ByteBuffer: [Int: Session]] = [:]
        var patterns: [ByteBuffer: PatternSubscribers] = [:]
    }

    private let state = Mutex(State())

    private static let messageKind = ByteBuffer(string: "message")
    private static let patternMessageKind = ByteBuffer(string: "pmessage")

    func subscribe(_ session: Session, channel: ByteBuffer) {
        state.withLock { $0.channels[ByteBuffer(channel), default: [:]][session.id] = session }
    }

    func unsubscribe(_ session: Session, channel: ByteBuffer) {
        state.withLock { state in
            state.channels[channel]?[session.id] = nil
            if state.channels[channel]?.isEmpty == true { state.channels[channel] = nil }
        }
    }

    func subscribe(_ session: Session, pattern: ByteBuffer) {
        state.withLock { state in
            let key = ByteBuffer(pattern)
            state.patterns[key, default: PatternSubscribers(pattern: GlobPattern(key))].sessions[session.id] = session
        }
    }

    func unsubscribe(_ session: Session, pattern: ByteBuffer) {
        state.withLock { state in
            state.patterns[pattern]?.sessions[session.id] = nil
            if state.patterns[pattern]?.sessions.isEmpty == true { state.patterns[pattern] = nil }
        }
    }

    /// Delivers `message` to the subscribers of `channel` and of the
    /// patterns it matches (channel subscribers first, as Redis does);
    /// returns how many deliveries were made.
    func publish(channel: ByteBuffer, message: ByteBuffer) -> Int {
        let (direct, matched) = state.withLock { state in
            let direct = state.channels[channel].map { Array($0.values) } ?? []
            var matched: [(ByteBuffer, [Session])] = []
            for (pattern, subscribers) in state.patterns where subscribers.pattern.matches(channel) {
                matched.append((pattern, Array(subscribers.sessions.values)))
            }
            return (direct, matched)
        }
        var deliveries = 0
        if !direct.isEmpty {
            let encoded = Reply.array([.bulk(Self.messageKind), .bulk(channel), .bulk(message)]).encoded
            for session in direct { session.push(encoded) }
            deliveries += direct.count
        }
        for (pattern, sessions) in matched {
            let encoded = Reply.array([.bulk(Self.patternMessageKind), .bulk(pattern), .bulk(channel), .bulk(message)]).encoded
            for session in sessions { session.push(encoded) }
            deliveries += sessions.count
        }
        return deliveries
    }

    /// PUBSUB CHANNELS [pattern]: the channels with a subscriber (that
    /// match). The names are taken under the lock and matched after it.
    func channels(matching pattern: GlobPattern?) -> [ByteBuffer] {
        let names = state.withLock { Array($0.channels.keys) }
        guard let pattern else { return names }
        return names.filter { pattern.matches($0) }
    }

    /// PUBSUB NUMSUB channel...: each channel's subscriber count.
    func subscriberCounts(_ channels: [ByteBuffer]) -> [Int] {
        state.withLock { state in channels.map { state.channels[$0]?.count ?? 0 } }
    }

    /// Channels and patterns with at least one subscriber, for INFO.
    var counts: (channels: Int, patterns: Int) {
        state.withLock { ($0.channels.count, $0.patterns.count) }
    }
}
