#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RxSwift's name for a scheduler's time: `Date`.
///
/// In a file that imports RxFoundation (and reaches RxCore only through
/// it), `RxTime` is `Date`, as in RxSwift: `func now() -> RxTime { Date() }`
/// and a virtual-time converter written with `RxTime` compile unchanged.
/// This declaration shadows RxCore's own time type, which such a file
/// spells `RxCore.RxTime`; a file that imports RxCore itself as well must
/// write `Date` or `RxCore.RxTime`.
public typealias RxTime = Date
