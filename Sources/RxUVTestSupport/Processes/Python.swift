import Foundation

/// Runs python3 with `arguments` (`-c SCRIPT`, or a script's path and its
/// arguments), `input` on its standard input, to its end: its exit status
/// and standard output. For a peer's side of a differential (h11,
/// wsproto) that needs no loop; a peer that talks to the test's loop runs
/// with `Loop.python` or `PythonPeer`.
public func runPython(_ arguments: [String], input: [UInt8] = []) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let standardInput = Pipe()
    let standardOutput = Pipe()
    process.standardInput = standardInput
    process.standardOutput = standardOutput
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input))
    try standardInput.fileHandleForWriting.close()
    let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

/// The path of `name`, a file beside the test file that calls this (its
/// `#filePath`): a peer's script kept with its test.
public func besideTest(_ name: String, file: String = #filePath) -> String {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name).path
}
