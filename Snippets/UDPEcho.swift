// A UDP echo: every datagram goes back to its sender.

import RxCore
import RxUV

func udpEcho(loop: Loop, port: Int) -> Disposable {
    loop.rx.bindUDP(host: "127.0.0.1", port: port)
        .asObservable()
        .flatMap { socket in
            socket.rx.datagrams.flatMap { datagram in
                socket.send(datagram.bytes, to: datagram.sender).asObservable()
            }
        }
        .subscribe(onError: { print("udp echo: \($0)") })
}
