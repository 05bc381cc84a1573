import RxUV

/// Checks that bytes are UTF-8 (RFC 3629) as they arrive, piece by piece:
/// how a text message is checked across its fragments (RFC 6455 §8.1),
/// failing at the first byte that no valid text can have.
///
/// A deterministic automaton over byte classes: it refuses overlong forms
/// (C0, C1, E0 80–9F, F0 80–8F), surrogates (ED A0–BF), code points past
/// U+10FFFF (F4 90–BF, F5–FF) and stray or missing continuation bytes. A
/// sequence may be split anywhere between two pieces; `finish()` refuses a
/// text that ends inside one. Runs of ASCII are skipped eight bytes at a
/// time. A value: each text gets its own; any thread.
public struct WebSocketUTF8Validator: Sendable, Hashable {
    /// Why the bytes are not UTF-8, and where.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The position of the byte that cannot follow what came before,
        /// counted from the first byte fed; for an incomplete sequence, the
        /// end of the text.
        public let offset: Int
        /// `false`: a byte that no valid text has there; `true`: the text
        /// ended inside a sequence.
        public let isIncomplete: Bool

        /// A failure at `offset`: an invalid byte, or (`isIncomplete`) a
        /// text that ended inside a sequence.
        public init(offset: Int, isIncomplete: Bool) {
            self.offset = offset
            self.isIncomplete = isIncomplete
        }

        /// `invalid UTF-8 at byte 12`, `UTF-8 cut short at byte 3`.
        public var description: String {
            isIncomplete ? "UTF-8 cut short at byte \(offset)" : "invalid UTF-8 at byte \(offset)"
        }
    }

    /// Where the automaton is: 0 between characters, 1–7 inside one (see
    /// `transitions`), `rejected` after a failure.
    private var state: UInt8 = 0
    /// Bytes taken so far (up to the failure, after one).
    public private(set) var count = 0

    private static let rejected: UInt8 = 8

    /// A validator at the start of a text.
    public init() {}

    /// `true` when the bytes so far end between two characters (and none
    /// was invalid): the text could end here.
    public var isAtBoundary: Bool {
        state == 0
    }

    /// Checks `bytes`, which follow those fed before; throws at the first
    /// byte that cannot continue valid UTF-8 (and again on every later call).
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard state != Self.rejected else { throw Failure(offset: count, isIncomplete: false) }
        guard let base = bytes.baseAddress else { return }
        let end = bytes.count
        var index = 0
        var state = self.state
        let transitions = Self.transitions
        while index < end {
            if state == 0 {
                // Between characters: skip ASCII eight bytes at a time.
                while end - index >= 8, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < end else { break }
            }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            state = transitions[Int(state) &* 12 &+ Int(Self.byteClass(byte))]
            if state == Self.rejected {
                self.state = state
                count += index
                throw Failure(offset: count, isIncomplete: false)
            }
            index += 1
        }
        self.state = state
        count += end
    }

    /// Checks the bytes of `buffer`, as `validate(_:)` on its memory.
    public mutating func validate(_ buffer: ByteBuffer) throws(Failure) {
        // `withUnsafeBytes` rethrows untyped: the failure is carried out.
        var failure: Failure?
        buffer.withUnsafeBytes { bytes in
            do throws(Failure) {
                try validate(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The end of the text: throws when it ends inside a sequence (or after
    /// a failure).
    public func finish() throws(Failure) {
        guard state != 0 else { return }
        throw Failure(offset: count, isIncomplete: state != Self.rejected)
    }

    /// The class of `byte`: 0 ASCII; 1 80–8F, 2 90–9F, 3 A0–BF
    /// (continuations, told apart for the second byte of E0, ED, F0, F4);
    /// 4 never valid (C0, C1, F5–FF); 5 C2–DF; 6 E0; 7 E1–EC, EE, EF; 8 ED;
    /// 9 F0; 10 F1–F3; 11 F4.
    @inline(__always)
    private static func byteClass(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x00...0x7F: 0
        case 0x80...0x8F: 1
        case 0x90...0x9F: 2
        case 0xA0...0xBF: 3
        case 0xC2...0xDF: 5
        case 0xE0: 6
        case 0xED: 8
        case 0xE1...0xEF: 7
        case 0xF0: 9
        case 0xF1...0xF3: 10
        case 0xF4: 11
        default: 4
        }
    }

    /// The automaton, a row of twelve classes per state. States: 0 between
    /// characters; 1, 2, 3 one, two, three continuation bytes to come; 4
    /// after E0 (A0–BF next: no overlong); 5 after ED (80–9F next: no
    /// surrogate); 6 after F0 (90–BF next: no overlong); 7 after F4 (80–8F
    /// next: nothing past U+10FFFF); 8 rejected.
    private static let transitions: [UInt8] = {
        let r = rejected
        return [
            // 0: ASCII, a lead byte, or nothing valid
            0, r, r, r, r, 1, 4, 2, 5, 6, 3, 7,
            // 1: one continuation to come
            r, 0, 0, 0, r, r, r, r, r, r, r, r,
            // 2: two to come
            r, 1, 1, 1, r, r, r, r, r, r, r, r,
            // 3: three to come
            r, 2, 2, 2, r, r, r, r, r, r, r, r,
            // 4: after E0
            r, r, r, 1, r, r, r, r, r, r, r, r,
            // 5: after ED
            r, 1, 1, r, r, r, r, r, r, r, r, r,
            // 6: after F0
            r, r, 2, 2, r, r, r, r, r, r, r, r,
            // 7: after F4
            r, 2, r, r, r, r, r, r, r, r, r, r,
        ]
    }()
}
