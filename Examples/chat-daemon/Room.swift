import RxCore

/// A connection's number in the room, given by the daemon.
typealias ClientID = Int

/// What a session tells the room: the room's only input.
enum ChatCommand {
    /// A client connected; it is asked for a nick.
    case connected(ClientID)
    /// A complete line from a client: its nick, a message or a command.
    case line(ClientID, String)
    /// A client sent a line over the length limit; it was dropped.
    case lineTooLong(ClientID)
    /// A client's connection ended (EOF, reset, or closed by the room).
    case disconnected(ClientID)
    /// The server is stopping: say goodbye to everyone.
    case shutdown
}

/// One line the room sends, and to whom.
struct Delivery {
    /// The clients that get it.
    let recipients: Set<ClientID>
    /// The line, without its newline; `nil` for a farewell with nothing to say.
    let text: String?
    /// The last delivery to its recipients: their sessions close after it.
    var isFarewell = false
}

/// Who is here: the room's state, read by everyone, changed only by the room.
struct RoomState {
    /// Clients connected that have not chosen a nick yet.
    fileprivate(set) var waiting: Set<ClientID> = []
    /// The nick of each client in the room.
    fileprivate(set) var nicks: [ClientID: String] = [:]
    /// Messages relayed since the start.
    fileprivate(set) var relayed = 0
    /// `true` once the server is stopping.
    fileprivate(set) var isShuttingDown = false

    /// The nicks in the room, sorted.
    var who: [String] {
        nicks.values.sorted()
    }

    /// Clients connected, with or without a nick.
    var connected: Int {
        waiting.count + nicks.count
    }
}

/// The chat room as a one-way data flow: sessions send `ChatCommand`s to the
/// write-only `input`; the room applies each to its state, publishes the
/// state as a read-only `Property`, and sends lines out through `deliveries`.
// @unchecked Sendable: sessions on every loop hold it, but they hand their
// commands to the room's loop (`input` is used on that thread only); the
// state and the deliveries are thread-safe subjects.
final class Room: @unchecked Sendable {
    /// The longest line accepted, in bytes.
    static let maxLineLength = 4096

    /// The write-only face: where sessions send what their clients do.
    let input: AnyObserver<ChatCommand>
    /// Who is here; nobody outside the room can set it.
    let state: Property<RoomState>
    /// Every line the room sends, with its recipients, as it is sent.
    let deliveries: Observable<Delivery>

    private let bag = DisposeBag()

    init() {
        let commands = PublishSubject<ChatCommand>()
        let relay = BehaviorRelay(value: RoomState())
        let outbox = PublishSubject<Delivery>()
        input = commands.asObserver()
        state = Property(relay)
        deliveries = outbox.asObservable()
        commands
            .subscribe(onNext: { command in
                var next = relay.value
                let sent = next.apply(command)
                relay.accept(next)
                sent.forEach(outbox.onNext)
            })
            .disposed(by: bag)
    }
}

extension RoomState {
    /// Applies `command` and returns the lines to send, in order.
    fileprivate mutating func apply(_ command: ChatCommand) -> [Delivery] {
        switch command {
        case .connected(let id):
            if isShuttingDown {
                return [Delivery(recipients: [id], text: "* server shutting down", isFarewell: true)]
            }
            waiting.insert(id)
            return [Delivery(recipients: [id], text: "* welcome to chat-daemon; send your nick (\(RoomState.nickRule))")]

        case .line(let id, let text):
            if waiting.contains(id) {
                return choose(nick: text, for: id)
            }
            guard let nick = nicks[id] else { return [] }
            switch text {
            case "":
                return []
            case "/who":
                return [Delivery(recipients: [id], text: "* here: \(who.joined(separator: ", "))")]
            case "/quit":
                nicks[id] = nil
                return [
                    Delivery(recipients: [id], text: "* bye", isFarewell: true),
                    Delivery(recipients: everyone(except: id), text: "* \(nick) left"),
                ]
            case _ where text.hasPrefix("/"):
                return [Delivery(recipients: [id], text: "* unknown command \(text.split(separator: " ")[0]) (try /who or /quit)")]
            default:
                relayed += 1
                return [Delivery(recipients: everyone(except: id), text: "<\(nick)> \(text)")]
            }

        case .lineTooLong(let id):
            return [Delivery(recipients: [id], text: "* line too long (over \(Room.maxLineLength) bytes), dropped")]

        case .disconnected(let id):
            waiting.remove(id)
            guard let nick = nicks.removeValue(forKey: id) else {
                return [Delivery(recipients: [id], text: nil, isFarewell: true)]
            }
            return [
                Delivery(recipients: [id], text: nil, isFarewell: true),
                Delivery(recipients: everyone(except: id), text: "* \(nick) left"),
            ]

        case .shutdown:
            isShuttingDown = true
            let all = waiting.union(nicks.keys)
            return [Delivery(recipients: all, text: "* server shutting down", isFarewell: true)]
        }
    }

    private mutating func choose(nick: String, for id: ClientID) -> [Delivery] {
        guard RoomState.isValid(nick: nick) else {
            return [Delivery(recipients: [id], text: "* invalid nick: \(RoomState.nickRule)")]
        }
        guard !nicks.values.contains(where: { $0.lowercased() == nick.lowercased() }) else {
            return [Delivery(recipients: [id], text: "* nick \(nick) is taken, choose another")]
        }
        waiting.remove(id)
        nicks[id] = nick
        return [
            Delivery(recipients: [id], text: "* you are \(nick); here: \(who.joined(separator: ", "))"),
            Delivery(recipients: everyone(except: id), text: "* \(nick) joined"),
        ]
    }

    private func everyone(except id: ClientID) -> Set<ClientID> {
        var recipients = Set(nicks.keys)
        recipients.remove(id)
        return recipients
    }

    private static let nickRule = "1 to 16 letters, digits, _ or -, starting with a letter"

    private static func isValid(nick: String) -> Bool {
        let bytes = Array(nick.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        guard (1...16).contains(bytes.count), isLetter(bytes[0]) else { return false }
        return bytes.allSatisfy { isLetter($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }
}
