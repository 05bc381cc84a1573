import Foundation

/// Runs python3 (h11's side of the differential and encoder tests) with
/// `arguments` (`-c SCRIPT`, or a script's path), `input` on its standard
/// input; its exit status and standard output.
func runPython(_ arguments: [String], input: [UInt8] = []) throws -> (status: Int32, output: Data) {
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

/// The path of `name`, a file beside the test file `file`.
func besideTest(_ name: String, file: String = #filePath) -> String {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name).path
}
