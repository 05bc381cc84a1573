@_spi(Bridge) import RxCore
import RxUV

/// The ways to read a body that arrives (`HTTPBodySource`, or none for a
/// message without a body), shared by the public faces of a server's
/// request body and a client's response body: as buffers, whole up to a
/// limit, or as an `AsyncSequence` with watermarks. Each keeps `owner` (the
/// public face whose release lets an unread body go) alive for as long as
/// the sequence it makes, so that the body is not let go between the
/// reader's call and its subscription.
package enum HTTPBodyReading {
    /// The body's buffers on its connection's loop thread (`.empty()` for
    /// none): what was held before the subscription, then the rest as it
    /// arrives; one subscriber (a second fails with `EBUSY`).
    package static func bytes(_ source: HTTPBodySource?, owner: (any AnyObject & Sendable)? = nil) -> Observable<ByteBuffer> {
        guard let source else { return .empty() }
        return HTTPBodyBytes(source: source, owner: owner)
    }

    /// The whole body as one buffer; fails with `tooLarge()` once it passes
    /// `maxLength` bytes (at once when its declared length does), without
    /// holding more: the reading stops there (the body is let go).
    package static func collect(
        _ source: HTTPBodySource?, owner: (any AnyObject & Sendable)? = nil, upTo maxLength: Int, tooLarge: @escaping @Sendable () -> any Error
    ) -> Single<ByteBuffer> {
        if let declared = source?.declaredLength, declared > maxLength {
            return .error(tooLarge())
        }
        guard let source else { return .just(ByteBuffer()) }
        return Single(raw: HTTPBodyCollect(source: source, owner: owner, limit: maxLength, tooLarge: tooLarge))
    }

    /// The body as an `AsyncSequence`: while the consumer holds more than
    /// `highWatermark` bytes the connection stops reading, and reads again
    /// at `lowWatermark`.
    package static func values(
        _ source: HTTPBodySource?, owner: (any AnyObject & Sendable)? = nil, highWatermark: Int, lowWatermark: Int
    ) -> ObservableValues<ByteBuffer> {
        let demand = AsyncValuesDemand<ByteBuffer>(
            highWatermark: highWatermark, lowWatermark: lowWatermark,
            weight: { $0.count },
            pause: { source?.consumerHolds(true) },
            resume: { source?.consumerHolds(false) },
            subscribe: ByteBufferValuesObserver.subscribe
        )
        return ObservableValues(source: bytes(source, owner: owner), demand: demand)
    }
}
