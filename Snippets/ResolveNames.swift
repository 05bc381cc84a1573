// Name lookups as Singles: the addresses of a host, and the name of an address.

import RxCore
import RxUV

func lookups(loop: Loop) {
    _ = loop.rx.resolve(host: "localhost", port: 80, family: .ipv4)
        .subscribe(onSuccess: { addresses in print("localhost is \(addresses)") }, onFailure: { print("lookup failed: \($0)") })
    if let address = try? SocketAddress(ip: "127.0.0.1", port: 22) {
        _ = loop.rx.reverseLookup(address)
            .subscribe(onSuccess: { name in print("\(address) is \(name.host), service \(name.service)") })
    }
}
