import RxCore
import RxUV
import XCTest

extension Loop {
    /// Runs `python3 -c script arguments…` on this loop and returns its
    /// standard output; fails the test with its standard error when it
    /// exits non-zero.
    public func python(_ script: String, _ arguments: [String], input: ByteBuffer? = nil, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        try await run("python3", ["-c", script] + arguments, input: input, file: file, line: line)
    }

    /// Runs `executable arguments…` on this loop and returns its standard
    /// output; fails the test with its standard error when it exits
    /// non-zero.
    public func run(_ executable: String, _ arguments: [String], input: ByteBuffer? = nil, file: StaticString = #filePath, line: UInt = #line) async throws -> String {
        let output = try await rx.run(ProcessOptions(executable, arguments: arguments), input: input).value
        let standardError = String(decoding: Array(output.standardError), as: UTF8.self)
        XCTAssertEqual(output.status, .exited(0), "\(executable): \(standardError)", file: file, line: line)
        return String(decoding: Array(output.standardOutput), as: UTF8.self)
    }
}
