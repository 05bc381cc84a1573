import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// Swift 6 code as a user writes it, compiled in Swift 6 language mode with
/// complete checking, no `@testable` and no `@preconcurrency`: a loop, a
/// connection, subjects, a relay, a `DisposeBag` and the `Disposable` that
/// `subscribe` returns are handed to other tasks and threads, used and
/// disposed there, and a subject's `values` is awaited in a task.
final class SendableUsageTests: BridgeTestCase {
    func testSwift6_HandsBridgeAndCoreObjectsToTasksAndThreads() {
        let loop = self.loop!
        // Replayed, so the task that awaits it misses nothing however late it subscribes.
        let lines = ReplaySubject<String>.create(bufferSize: 16)
        let relay = BehaviorRelay(value: 0)
        let bag = DisposeBag()
        let port = Shared(0)
        let awaited = Shared<[String]>([])
        let relayed = Shared<[Int]>([])
        let tasksDone = DispatchGroup()

        // A task awaits the subject's values.
        tasksDone.enter()
        Task.detached {
            do {
                for try await line in lines.values {
                    awaited.mutate { $0.append(line) }
                }
            } catch {
                XCTFail("values threw \(error)")
            }
            tasksDone.leave()
        }

        // Each accepted connection is handed to a detached task, which writes and closes it.
        let server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                Task.detached {
                    _ = connection.write("hello from a task").subscribe(onCompleted: { connection.close() })
                }
            })

        // The client reads until EOF, then the listen subscription is
        // disposed from a Dispatch thread and the subject completed from a task.
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.reduce("") { $0 + $1.string }.subscribe(onNext: { text in
                lines.onNext(text)
                DispatchQueue.global().async {
                    server.dispose()
                    Task.detached {
                        lines.onCompleted()
                    }
                }
            })
        })

        // A bag and a relay used from another thread.
        tasksDone.enter()
        DispatchQueue.global().async {
            relay.asObservable()
                .subscribe(onNext: { value in relayed.mutate { $0.append(value) } })
                .disposed(by: bag)
            relay.accept(1)
            loop.execute {
                relay.accept(2)
            }
            tasksDone.leave()
        }

        runLoop()
        XCTAssertEqual(tasksDone.wait(timeout: .now() + 10), .success, "the tasks did not finish")
        XCTAssertEqual(awaited.value, ["hello from a task"])
        XCTAssertEqual(relayed.value.first, 0)
        XCTAssertEqual(relayed.value.last, 2)
        _ = bag
    }
}
