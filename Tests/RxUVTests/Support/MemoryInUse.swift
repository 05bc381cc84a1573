#if canImport(Glibc)
import Glibc
#endif

/// Bytes in use, for tests that bound memory: the sanitizer allocator's
/// live bytes when a sanitizer runtime is loaded (`make sanitize`,
/// `make sanitize-thread`: exact, and blind to ASan's quarantine of freed
/// memory, which would otherwise show as resident), else the process's
/// resident memory (`/proc/self/statm`).
func memoryInUse() -> Int {
    typealias AllocatedBytes = @convention(c) () -> Int
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__sanitizer_get_current_allocated_bytes") {
        return unsafeBitCast(symbol, to: AllocatedBytes.self)()
    }
    return residentBytes()
}

/// The process's resident memory, from /proc/self/statm.
private func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard
        withUnsafeMutablePointer(
            to: &size,
            { size in
                withUnsafeMutablePointer(to: &resident) { resident in
                    withVaList([size, resident]) { vfscanf(file, "%ld %ld", $0) }
                }
            }) == 2
    else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}
