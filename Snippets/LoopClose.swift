// `close()` refuses to close a loop with open handles and names them.

import RxCore
import RxUV

let loop = try Loop()
let forgotten = loop.rx.timer(after: .seconds(60)).subscribe()

do {
    try loop.close()
} catch {
    print(error) // Loop.close 1 open handle: timer: EBUSY (resource busy or locked)
}

forgotten.dispose() // uv_close: the timer's close callback is still to come
try loop.close() // runs the close callback first, then closes
try loop.close() // closing twice does nothing
