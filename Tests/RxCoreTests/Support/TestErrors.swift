/// Errors used by the tests.
enum TestError: Error, Equatable {
    case dummy
    case other
}

let testError = TestError.dummy
let testError1 = TestError.dummy
let testError2 = TestError.other
