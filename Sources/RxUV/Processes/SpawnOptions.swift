internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// What `uv_spawn` is given for a `ProcessOptions`: the C strings, arrays
/// and standard-descriptor containers, made for one call and freed after
/// it.
enum SpawnOptions {
    /// Runs `body` with libuv's options for `options`: C strings and arrays
    /// that live for the call.
    static func with<Result>(
        _ options: ProcessOptions, executable: String, environment: [String]?, pipes: [UVPipe?],
        _ body: (inout uv_process_options_t) throws(UVError) -> Result
    ) throws(UVError) -> Result {
        let arguments = CStringArray([executable] + options.arguments)
        let environmentEntries = environment.map(CStringArray.init)
        let directory = options.workingDirectory.map { strdup($0)! }
        defer { free(directory) }
        var stdio = [options.standardInput, options.standardOutput, options.standardError].enumerated().map { index, io in
            container(io, pipe: pipes[index], descriptor: Int32(index))
        }
        var flags: UInt32 = 0
        if options.newSession { flags |= UV_PROCESS_DETACHED.rawValue }
        if options.userID != nil { flags |= UV_PROCESS_SETUID.rawValue }
        if options.groupID != nil { flags |= UV_PROCESS_SETGID.rawValue }
        return try stdio.withUnsafeMutableBufferPointer { (stdio) throws(UVError) in
            var raw = uv_process_options_t()
            raw.file = UnsafePointer(arguments.pointers[0])
            raw.args = arguments.base
            raw.env = environmentEntries?.base
            raw.cwd = UnsafePointer(directory)
            raw.flags = flags
            raw.stdio_count = Int32(stdio.count)
            raw.stdio = stdio.baseAddress
            raw.uid = options.userID ?? 0
            raw.gid = options.groupID ?? 0
            return try withExtendedLifetime((arguments, environmentEntries)) { () throws(UVError) in try body(&raw) }
        }
    }

    /// libuv's description of the child's standard `descriptor` (0, 1, 2).
    /// Flags on a pipe are the child's view: it reads its standard input,
    /// writes the others.
    private static func container(_ io: ProcessIO, pipe: UVPipe?, descriptor: Int32) -> uv_stdio_container_t {
        var container = uv_stdio_container_t()
        switch io {
        case .pipe:
            let direction = descriptor == 0 ? UV_READABLE_PIPE.rawValue : UV_WRITABLE_PIPE.rawValue
            container.flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | direction)
            container.data.stream = UnsafeMutableRawPointer(pipe!.pipe).assumingMemoryBound(to: uv_stream_t.self)
        case .inherit:
            container.flags = UV_INHERIT_FD
            container.data.fd = descriptor
        case .discard:
            container.flags = UV_IGNORE
        case .descriptor(let given):
            container.flags = UV_INHERIT_FD
            container.data.fd = given
        }
        return container
    }
}

/// A NULL-terminated array of C strings (`argv`, `envp`), freed with it.
private final class CStringArray {
    let pointers: [UnsafeMutablePointer<CChar>?]
    let base: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
        base = .allocate(capacity: pointers.count)
        base.initialize(from: pointers, count: pointers.count)
    }

    deinit {
        for pointer in pointers {
            free(pointer)
        }
        base.deallocate()
    }
}
