internal import CLibUV

extension UVError {
    /// A libuv error code, matchable by name: `error.code == .addressInUse`,
    /// `catch UVError.Code.connectionRefused`, or `switch` over it.
    ///
    /// Every code libuv 1.44 defines has a name here (`addressInUse` is
    /// `UV_EADDRINUSE`); a code it does not define (a future libuv, a raw
    /// errno) is still a `Code`, with `name` `Unknown system error N`.
    /// `name` and `message` are libuv's, built when asked for
    /// (`uv_err_name_r`, `uv_strerror_r`, which do not leak for unknown
    /// codes as `uv_err_name` and `uv_strerror` do).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// libuv's (negative) error code.
        public let rawValue: Int32

        /// The code for libuv status `rawValue`.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        init(_ code: uv_errno_t) {
            self.init(rawValue: code.rawValue)
        }

        /// libuv's name for the code: `EADDRINUSE`, `EOF`, `EAI_NONAME`.
        public var name: String {
            text { uv_err_name_r(rawValue, $0, $1) }
        }

        /// libuv's message for the code: `address already in use`.
        public var message: String {
            text { uv_strerror_r(rawValue, $0, $1) }
        }

        /// The name: `EADDRINUSE`.
        public var description: String {
            name
        }

        /// What a libuv `_r` function writes into a buffer, as a `String`.
        private func text(_ write: (UnsafeMutablePointer<CChar>, Int) -> UnsafeMutablePointer<CChar>?) -> String {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
                buffer.initialize(repeating: 0)
                _ = write(buffer.baseAddress!, buffer.count - 1)
                return String(decoding: UnsafeRawBufferPointer(buffer).prefix { $0 != 0 }, as: UTF8.self)
            }
        }

        /// Matches an error that is a `UVError` with this code:
        /// `catch UVError.Code.addressInUse { … }`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? UVError)?.code == pattern
        }

        /// `E2BIG`: argument list too long.
        public static let argumentListTooLong = Code(UV_E2BIG)
        /// `EACCES`: permission denied.
        public static let permissionDenied = Code(UV_EACCES)
        /// `EADDRINUSE`: address already in use.
        public static let addressInUse = Code(UV_EADDRINUSE)
        /// `EADDRNOTAVAIL`: address not available.
        public static let addressNotAvailable = Code(UV_EADDRNOTAVAIL)
        /// `EAFNOSUPPORT`: address family not supported.
        public static let addressFamilyNotSupported = Code(UV_EAFNOSUPPORT)
        /// `EAGAIN`: resource temporarily unavailable.
        public static let wouldBlock = Code(UV_EAGAIN)
        /// `EAI_ADDRFAMILY`: address family not supported.
        public static let lookupAddressFamilyNotSupported = Code(UV_EAI_ADDRFAMILY)
        /// `EAI_AGAIN`: temporary failure.
        public static let lookupTemporaryFailure = Code(UV_EAI_AGAIN)
        /// `EAI_BADFLAGS`: bad ai_flags value.
        public static let lookupBadFlags = Code(UV_EAI_BADFLAGS)
        /// `EAI_BADHINTS`: invalid value for hints.
        public static let lookupBadHints = Code(UV_EAI_BADHINTS)
        /// `EAI_CANCELED`: request canceled.
        public static let lookupCancelled = Code(UV_EAI_CANCELED)
        /// `EAI_FAIL`: permanent failure.
        public static let lookupFailed = Code(UV_EAI_FAIL)
        /// `EAI_FAMILY`: ai_family not supported.
        public static let lookupFamilyNotSupported = Code(UV_EAI_FAMILY)
        /// `EAI_MEMORY`: out of memory.
        public static let lookupOutOfMemory = Code(UV_EAI_MEMORY)
        /// `EAI_NODATA`: no address.
        public static let lookupNoAddress = Code(UV_EAI_NODATA)
        /// `EAI_NONAME`: unknown node or service.
        public static let unknownHost = Code(UV_EAI_NONAME)
        /// `EAI_OVERFLOW`: argument buffer overflow.
        public static let lookupOverflow = Code(UV_EAI_OVERFLOW)
        /// `EAI_PROTOCOL`: resolved protocol is unknown.
        public static let lookupUnknownProtocol = Code(UV_EAI_PROTOCOL)
        /// `EAI_SERVICE`: service not available for socket type.
        public static let lookupServiceNotAvailable = Code(UV_EAI_SERVICE)
        /// `EAI_SOCKTYPE`: socket type not supported.
        public static let lookupSocketTypeNotSupported = Code(UV_EAI_SOCKTYPE)
        /// `EALREADY`: connection already in progress.
        public static let alreadyInProgress = Code(UV_EALREADY)
        /// `EBADF`: bad file descriptor.
        public static let badFileDescriptor = Code(UV_EBADF)
        /// `EBUSY`: resource busy or locked.
        public static let busy = Code(UV_EBUSY)
        /// `ECANCELED`: operation canceled.
        public static let cancelled = Code(UV_ECANCELED)
        /// `ECHARSET`: invalid Unicode character.
        public static let invalidUnicodeCharacter = Code(UV_ECHARSET)
        /// `ECONNABORTED`: software caused connection abort.
        public static let connectionAborted = Code(UV_ECONNABORTED)
        /// `ECONNREFUSED`: connection refused.
        public static let connectionRefused = Code(UV_ECONNREFUSED)
        /// `ECONNRESET`: connection reset by peer.
        public static let connectionReset = Code(UV_ECONNRESET)
        /// `EDESTADDRREQ`: destination address required.
        public static let destinationAddressRequired = Code(UV_EDESTADDRREQ)
        /// `EEXIST`: file already exists.
        public static let fileExists = Code(UV_EEXIST)
        /// `EFAULT`: bad address in system call argument.
        public static let badAddress = Code(UV_EFAULT)
        /// `EFBIG`: file too large.
        public static let fileTooLarge = Code(UV_EFBIG)
        /// `EHOSTUNREACH`: host is unreachable.
        public static let hostUnreachable = Code(UV_EHOSTUNREACH)
        /// `EINTR`: interrupted system call.
        public static let interrupted = Code(UV_EINTR)
        /// `EINVAL`: invalid argument.
        public static let invalidArgument = Code(UV_EINVAL)
        /// `EIO`: i/o error.
        public static let ioError = Code(UV_EIO)
        /// `EISCONN`: socket is already connected.
        public static let alreadyConnected = Code(UV_EISCONN)
        /// `EISDIR`: illegal operation on a directory.
        public static let isADirectory = Code(UV_EISDIR)
        /// `ELOOP`: too many symbolic links encountered.
        public static let tooManySymbolicLinks = Code(UV_ELOOP)
        /// `EMFILE`: too many open files.
        public static let tooManyOpenFiles = Code(UV_EMFILE)
        /// `EMSGSIZE`: message too long.
        public static let messageTooLong = Code(UV_EMSGSIZE)
        /// `ENAMETOOLONG`: name too long.
        public static let nameTooLong = Code(UV_ENAMETOOLONG)
        /// `ENETDOWN`: network is down.
        public static let networkDown = Code(UV_ENETDOWN)
        /// `ENETUNREACH`: network is unreachable.
        public static let networkUnreachable = Code(UV_ENETUNREACH)
        /// `ENFILE`: file table overflow.
        public static let fileTableOverflow = Code(UV_ENFILE)
        /// `ENOBUFS`: no buffer space available.
        public static let noBufferSpace = Code(UV_ENOBUFS)
        /// `ENODEV`: no such device.
        public static let noSuchDevice = Code(UV_ENODEV)
        /// `ENOENT`: no such file or directory.
        public static let noSuchFileOrDirectory = Code(UV_ENOENT)
        /// `ENOMEM`: not enough memory.
        public static let outOfMemory = Code(UV_ENOMEM)
        /// `ENONET`: machine is not on the network.
        public static let notOnNetwork = Code(UV_ENONET)
        /// `ENOPROTOOPT`: protocol not available.
        public static let protocolNotAvailable = Code(UV_ENOPROTOOPT)
        /// `ENOSPC`: no space left on device.
        public static let noSpaceLeft = Code(UV_ENOSPC)
        /// `ENOSYS`: function not implemented.
        public static let notImplemented = Code(UV_ENOSYS)
        /// `ENOTCONN`: socket is not connected.
        public static let notConnected = Code(UV_ENOTCONN)
        /// `ENOTDIR`: not a directory.
        public static let notADirectory = Code(UV_ENOTDIR)
        /// `ENOTEMPTY`: directory not empty.
        public static let directoryNotEmpty = Code(UV_ENOTEMPTY)
        /// `ENOTSOCK`: socket operation on non-socket.
        public static let notASocket = Code(UV_ENOTSOCK)
        /// `ENOTSUP`: operation not supported on socket.
        public static let notSupported = Code(UV_ENOTSUP)
        /// `EOVERFLOW`: value too large for defined data type.
        public static let valueTooLarge = Code(UV_EOVERFLOW)
        /// `EPERM`: operation not permitted.
        public static let notPermitted = Code(UV_EPERM)
        /// `EPIPE`: broken pipe.
        public static let brokenPipe = Code(UV_EPIPE)
        /// `EPROTO`: protocol error.
        public static let protocolError = Code(UV_EPROTO)
        /// `EPROTONOSUPPORT`: protocol not supported.
        public static let protocolNotSupported = Code(UV_EPROTONOSUPPORT)
        /// `EPROTOTYPE`: protocol wrong type for socket.
        public static let wrongProtocolType = Code(UV_EPROTOTYPE)
        /// `ERANGE`: result too large.
        public static let resultTooLarge = Code(UV_ERANGE)
        /// `EROFS`: read-only file system.
        public static let readOnlyFileSystem = Code(UV_EROFS)
        /// `ESHUTDOWN`: cannot send after transport endpoint shutdown.
        public static let shutDown = Code(UV_ESHUTDOWN)
        /// `ESPIPE`: invalid seek.
        public static let invalidSeek = Code(UV_ESPIPE)
        /// `ESRCH`: no such process.
        public static let noSuchProcess = Code(UV_ESRCH)
        /// `ETIMEDOUT`: connection timed out.
        public static let timedOut = Code(UV_ETIMEDOUT)
        /// `ETXTBSY`: text file is busy.
        public static let textFileBusy = Code(UV_ETXTBSY)
        /// `EXDEV`: cross-device link not permitted.
        public static let crossDeviceLink = Code(UV_EXDEV)
        /// `UNKNOWN`: unknown error.
        public static let unknown = Code(UV_UNKNOWN)
        /// `EOF`: end of file.
        public static let endOfFile = Code(UV_EOF)
        /// `ENXIO`: no such device or address.
        public static let noSuchDeviceOrAddress = Code(UV_ENXIO)
        /// `EMLINK`: too many links.
        public static let tooManyLinks = Code(UV_EMLINK)
        /// `EHOSTDOWN`: host is down.
        public static let hostDown = Code(UV_EHOSTDOWN)
        /// `EREMOTEIO`: remote I/O error.
        public static let remoteIOError = Code(UV_EREMOTEIO)
        /// `ENOTTY`: inappropriate ioctl for device.
        public static let notATerminal = Code(UV_ENOTTY)
        /// `EFTYPE`: inappropriate file type or format.
        public static let inappropriateFileType = Code(UV_EFTYPE)
        /// `EILSEQ`: illegal byte sequence.
        public static let illegalByteSequence = Code(UV_EILSEQ)
        /// `ESOCKTNOSUPPORT`: socket type not supported.
        public static let socketTypeNotSupported = Code(UV_ESOCKTNOSUPPORT)

        /// Statuses a listening socket reports for one connection while it
        /// keeps listening: `EMFILE`, `ENFILE`, `ENOMEM`, `ENOBUFS`,
        /// `ECONNABORTED`.
        public static let transientAcceptFailures: Set<Code> = [
            tooManyOpenFiles, fileTableOverflow, outOfMemory, noBufferSpace, connectionAborted,
        ]
    }
}
