// Reload a configuration file whenever it changes, however an editor saves
// it; a deleted file keeps the last configuration.

import RxCore
import RxUV

func configurations(loop: Loop, path: String) -> Observable<ByteBuffer> {
    let changes = loop.rx.watchFile(path: path, settle: .milliseconds(200))
        .filter { $0.exists }
        .map { _ in () }
    return Observable.just(())
        .concat(changes)
        .flatMapLatest { _ in loop.rx.readFile(path: path, maxSize: 1024 * 1024).asObservable() }
}
