// A daemon's control socket: a Unix-domain socket only its own user may use,
// checked again with the caller's credentials, answering one line per command.

import RxCore
import RxUV

#if canImport(Glibc)
import Glibc
#endif

func controlSocket(loop: Loop, path: String) -> Disposable {
    loop.rx.listen(unixPath: path, mode: 0o600)
        .subscribe(onNext: { connection in
            guard connection.peerCredentials?.userID == geteuid() else {
                connection.close()
                return
            }
            _ = connection.rx.data
                .lines(maxLength: 1024)
                .subscribe(onNext: { command in
                    let reply = command.string == "status" ? "ok\n" : "unknown command\n"
                    _ = connection.write(reply).subscribe()
                })
        })
}
