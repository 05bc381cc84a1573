// A filter in the style of grep: the lines of standard input that contain a
// word, to standard output, flushed before the loop ends.

import RxCore
import RxUV

func grep(word: String) throws {
    let loop = try Loop()
    let output = loop.standardOutput()
    _ = loop.rx.stdin
        .lines(maxLength: 64 * 1024)
        .filter { $0.string.contains(word) }
        .concatMap { line in output.write(line + ByteBuffer(string: "\n")).asObservable() }
        .concat(output.flush().asObservable())
        .subscribe(onError: { print("grep: \($0)") })
    loop.run()
    output.close()
    loop.run()
}
