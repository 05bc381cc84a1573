import Foundation

/// Runs python3 (wsproto's side of the differential) with `arguments` (a
/// script's path and its arguments): its exit status and standard output.
func runPython(_ arguments: [String]) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let standardOutput = Pipe()
    process.standardOutput = standardOutput
    try process.run()
    let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

/// The path of `name`, a file beside the test file `file`.
func besideTest(_ name: String, file: String = #filePath) -> String {
    URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(name).path
}
