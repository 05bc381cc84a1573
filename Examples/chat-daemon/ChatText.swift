import RxUV

extension String {
    /// The text of a client's line: invalid UTF-8 becomes U+FFFD and control
    /// characters (but tab) are removed, so binary garbage turns into
    /// harmless text.
    init(chatLine line: ByteBuffer) {
        var scalars = String.UnicodeScalarView()
        for scalar in line.string.unicodeScalars
        where scalar == "\t" || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
            scalars.append(scalar)
        }
        self = String(scalars)
    }
}
