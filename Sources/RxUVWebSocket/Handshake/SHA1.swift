/// SHA-1 (FIPS 180-4 §6.1), for the one use WebSocket's handshake makes of
/// it (RFC 6455 §4.2.2: `Sec-WebSocket-Accept` is the SHA-1 of the key and
/// a fixed GUID). Not a security primitive here: the handshake only proves
/// that the server read the key; nothing else in RxUV hashes with it.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)

    /// The 20-byte digest of `bytes`.
    static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) * 8
        // Padding: a 1 bit, zeros to 56 mod 64 bytes, the length in bits.
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var hasher = SHA1()
        for start in stride(from: 0, to: message.count, by: 64) {
            hasher.process(message[start..<(start + 64)])
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [hasher.state.0, hasher.state.1, hasher.state.2, hasher.state.3, hasher.state.4] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }

    /// One 64-byte block.
    private mutating func process(_ block: ArraySlice<UInt8>) {
        var w = [UInt32](repeating: 0, count: 80)
        var index = block.startIndex
        for t in 0..<16 {
            w[t] = UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8 | UInt32(block[index + 3])
            index += 4
        }
        for t in 16..<80 {
            let mixed = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
            w[t] = mixed << 1 | mixed >> 31
        }
        var (a, b, c, d, e) = state
        for t in 0..<80 {
            let f: UInt32
            let k: UInt32
            switch t {
            case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
