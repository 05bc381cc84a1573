#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoder that turns `Data` into a `Decodable` value: `JSONDecoder`,
/// `PropertyListDecoder`, or one of your own, as in RxSwift.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element with `decoder`.
    ///
    /// ```
    /// data:    --d1--d2--|
    /// decode:  --i1--i2--|
    /// ```
    ///
    /// A decoding error fails the sequence with that error and disposes the
    /// source, as a throwing `map` does.
    ///
    /// - Parameters:
    ///   - type: the `Decodable` type to decode.
    ///   - decoder: the decoder, such as `JSONDecoder()`.
    /// - Returns: the decoded values.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
