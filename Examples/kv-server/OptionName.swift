import RxUV

extension ByteBuffer {
    /// The argument as Redis compares an option name (`strcasecmp` on its
    /// bytes up to the first NUL), ASCII letters upper-cased; empty when longer than
    /// `limit`, so a huge argument is never upper-cased only to be refused.
    func optionName(limit: Int = 16) -> String {
        let name = prefix { $0 != 0 }
        guard name.count <= limit else { return "" }
        return String(decoding: name.map { (97...122).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
