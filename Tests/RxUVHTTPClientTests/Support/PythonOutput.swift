import Foundation

/// python3 exited with a status other than 0.
struct PythonScriptFailure: Error, CustomStringConvertible {
    /// The exit status.
    let status: Int32

    /// "python3 exited with status N".
    var description: String {
        "python3 exited with status \(status)"
    }
}

/// Runs `python3 -c script` with `input` on its standard input and returns
/// its standard output; throws `PythonScriptFailure` when it exits with a
/// status other than 0. The input goes in through a temporary file and the
/// output is read to its end, so that neither side waits on a full pipe
/// however large they are (the decompression tests send and read MiBs).
func pythonOutput(_ script: String, input: [UInt8] = []) throws -> [UInt8] {
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("rxuv-python-\(UUID().uuidString)")
    try Data(input).write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    let standardOutput = Pipe()
    process.standardOutput = standardOutput
    try process.run()
    let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw PythonScriptFailure(status: process.terminationStatus)
    }
    return [UInt8](output)
}
