// An echo server over TLS on every core, and a client that checks it against
// its own CA: the same chains as over TCP, with `tls:` added.

import RxCore
import RxUV
import RxUVTLS

// snippet.show
let identity = TLSIdentity(certificateChain: .file("cert.pem"), privateKey: .file("key.pem"))
let tls = try TLSContext(configuration: .server(identity: identity))
let group = try LoopGroup(threads: LoopGroup.coreCount)

let serving = group.rx.serve(host: "127.0.0.1", port: 7443, tls: tls) { served in
    served.connection.rx.data // plaintext, once the handshake is done
        .take(until: served.quiesce)
        .flatMap { served.connection.write($0) } // encrypted; held until the handshake ends
        .catch { error in
            print("\(served.connection.peerDescription ?? "?"): \(error)") // TLSError: unknownCA, notTLS...
            return .empty()
        }
        .asCompletable()
}

// A client that trusts the server's CA (not the system's store).
let client = try TLSContext(configuration: .client(trustRoots: .certificates(.file("ca.pem"))))
let loop = try Loop()
let hello = loop.rx.connect(host: "localhost", port: 7443, tls: client)
    .flatMap { stream in
        print("\(stream.session?.protocolVersion ?? .tls12) \(stream.session?.cipherSuite ?? "")")
        return stream.write("hello\n").andThen(stream.rx.data.take(1).asSingle())
    }
// snippet.end
_ = (serving, hello, loop)
