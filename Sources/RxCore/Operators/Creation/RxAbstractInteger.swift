/// The integer types that `range`, `interval` and `timer` can emit: every
/// fixed-width integer, as in RxSwift.
public typealias RxAbstractInteger = FixedWidthInteger
