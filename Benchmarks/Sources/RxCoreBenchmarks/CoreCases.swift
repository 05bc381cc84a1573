import OpenCombine
import RxCore

/// The four core cases, each for RxCore and OpenCombine. Every function
/// returns the median sample of its measured part.
enum CoreCases {
    /// (a) `count` Ints from a subject through map → filter → scan to a subscriber.
    static func subjectChainRx(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            let subject = PublishSubject<Int>()
            var last = 0
            let subscription =
                subject
                .map { $0 &+ 1 }
                .filter { $0 & 1 == 0 }
                .scan(0, accumulator: &+)
                .subscribe(onNext: { last = $0 })
            stopwatch.start()
            for value in 0..<count {
                subject.onNext(value)
            }
            stopwatch.stop()
            subscription.dispose()
            blackHole(last)
        }
    }

    static func subjectChainCombine(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            let subject = PassthroughSubject<Int, Never>()
            var last = 0
            let cancellable =
                subject
                .map { $0 &+ 1 }
                .filter { $0 & 1 == 0 }
                .scan(0, &+)
                .sink { last = $0 }
            stopwatch.start()
            for value in 0..<count {
                subject.send(value)
            }
            stopwatch.stop()
            cancellable.cancel()
            blackHole(last)
        }
    }

    /// (b) a range of `count` Ints through map → filter to a subscriber.
    static func rangeChainRx(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            var last = 0
            let source = Observable.range(start: 0, count: count)
                .map { $0 &+ 1 }
                .filter { $0 & 1 == 0 }
            stopwatch.start()
            let subscription = source.subscribe(onNext: { last = $0 })
            stopwatch.stop()
            subscription.dispose()
            blackHole(last)
        }
    }

    static func rangeChainCombine(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            var last = 0
            let source = (0..<count).publisher
                .map { $0 &+ 1 }
                .filter { $0 & 1 == 0 }
            stopwatch.start()
            let cancellable = source.sink { last = $0 }
            stopwatch.stop()
            cancellable.cancel()
            blackHole(last)
        }
    }

    /// (c) one subject, `subscribers` subscribers, `count` events: the sample
    /// covers subscribers × count deliveries.
    static func fanOutRx(subscribers: Int, count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            let subject = PublishSubject<Int>()
            var total = 0
            let subscriptions = (0..<subscribers).map { _ in
                subject.subscribe(onNext: { total &+= $0 })
            }
            stopwatch.start()
            for value in 0..<count {
                subject.onNext(value)
            }
            stopwatch.stop()
            subscriptions.forEach { $0.dispose() }
            blackHole(total)
        }
    }

    static func fanOutCombine(subscribers: Int, count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            let subject = PassthroughSubject<Int, Never>()
            var total = 0
            let cancellables = (0..<subscribers).map { _ in
                subject.sink { total &+= $0 }
            }
            stopwatch.start()
            for value in 0..<count {
                subject.send(value)
            }
            stopwatch.stop()
            cancellables.forEach { $0.cancel() }
            blackHole(total)
        }
    }

    /// (d) `count` × subscribe + dispose of `just(1).map { $0 }`.
    static func subscribeDisposeRx(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            var last = 0
            let source = Observable.just(1).map { $0 }
            stopwatch.start()
            for _ in 0..<count {
                source.subscribe(onNext: { last = $0 }).dispose()
            }
            stopwatch.stop()
            blackHole(last)
        }
    }

    static func subscribeDisposeCombine(count: Int, repetitions: Int) -> Sample {
        median(repetitions: repetitions) { stopwatch in
            var last = 0
            let source = Just(1).map { $0 }
            stopwatch.start()
            for _ in 0..<count {
                source.sink { last = $0 }.cancel()
            }
            stopwatch.stop()
            blackHole(last)
        }
    }
}
