// A blocking computation on libuv's thread pool, its result on the loop
// thread; the connections on the loop keep being served meanwhile.

import RxCore
import RxUV

func checksum(loop: Loop, path: String) -> Single<UInt32> {
    loop.rx.readFile(path: path).flatMap { bytes in
        loop.rx.work {
            // Adler-32, the slow way: a stand-in for any blocking call.
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in bytes {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
            return b << 16 | a
        }
    }
}
