internal import CLibUV
import RxCore

/// A loop's timers (`LoopTimer`) on one `uv_timer_t`: a binary min-heap
/// ordered by due time, then by start order, which is libuv's own order for
/// its timers, and one handle armed for the earliest.
///
/// What it saves against a `uv_timer_t` per timer: the handle's memory and
/// its Swift owner, `uv_timer_init` and `uv_close` with its close callback
/// on the next iteration, and a pointer-linked heap walk per start; what it
/// costs: one `uv_timer_start` when a new timer becomes the earliest.
///
/// Expiry follows libuv 1.44's `uv__run_timers`: at the handle's callback,
/// every timer due by the loop's time runs, earliest first, including one
/// started by an earlier callback of the same pass with a timeout of 0; a
/// repeating timer is put back (due a period after the loop's time) before
/// its callback runs. Then the handle is armed for the earliest timer left,
/// or closed when no timer is left, so an empty queue keeps no `run()`
/// alive and leaves no handle open.
///
/// The handle is the loop's own (`isLoopInternal`: its timers are what the
/// loop counts open), made when the first timer starts. Loop thread only.
final class LoopTimerQueue: UVTimerTarget {
    /// A heap entry: the due time and start order inline, so comparing two
    /// entries reads no timer; the heap holds a reference to each timer it
    /// holds.
    private struct Entry {
        var due: UInt64
        var order: UInt64
        var timer: Unmanaged<LoopTimer>

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            due < other.due || (due == other.due && order < other.order)
        }
    }

    unowned(unsafe) private let loop: Loop
    private var heap: ContiguousArray<Entry> = []
    private var nextOrder: UInt64 = 0
    /// The shared handle, once made, which the queue owns. Loop-thread
    /// state, read on every start: unchecked exclusivity, as the bridge's
    /// other loop-thread state.
    @exclusivity(unchecked) private var handle: Owned<UVTimer>?
    /// The due time the handle is armed for; `nil` when it is stopped.
    private var armedDue: UInt64?
    /// True while expired timers run: starts and removals leave the handle
    /// alone until the pass ends.
    private var isExpiring = false

    init(loop: Loop) {
        self.loop = loop
    }

    /// The number of running timers.
    var count: Int {
        heap.count
    }

    /// Puts `timer` on the heap, due `timeout` milliseconds after the loop's
    /// time (at most `UInt64.max`, as libuv clamps), taking it off first if it
    /// runs already. Makes the handle at the first call and arms it when
    /// `timer` is now the earliest. On failure `timer` is not on the heap.
    func schedule(_ timer: LoopTimer, after timeout: UInt64) throws(UVError) {
        // Off the heap first: that may close a handle left with no timer.
        if timer.isRunning {
            remove(timer)
        }
        let handle: UVTimer
        if let existing = self.handle?.resource {
            handle = existing
        } else {
            handle = try makeHandle()
        }
        let now = loop.clockMilliseconds
        let (due, overflow) = now.addingReportingOverflow(timeout)
        insert(Entry(due: overflow ? .max : due, order: nextOrder, timer: .passRetained(timer)))
        nextOrder &+= 1
        guard timer.heapIndex == 0, !isExpiring else { return }
        do throws(UVError) {
            try arm(handle)
        } catch {
            remove(timer)
            throw error
        }
    }

    /// Takes `timer`, which must be running, off the heap.
    func remove(_ timer: LoopTimer) {
        let entry = removeEntry(at: timer.heapIndex)
        if heap.isEmpty, !isExpiring {
            closeHandle()
        }
        entry.timer.release()
    }

    /// Releases every running timer without firing it (`Loop.closeAll`);
    /// returns how many there were.
    func discardAll() -> Int {
        let entries = heap
        heap.removeAll()
        closeHandle()
        for entry in entries {
            let timer = entry.timer.takeRetainedValue()
            timer.heapIndex = -1
            timer.discard()
        }
        return entries.count
    }

    /// The handle's callback: runs every timer due by the loop's time.
    func timerFired() {
        armedDue = nil
        let now = loop.clockMilliseconds
        isExpiring = true
        while let first = heap.first, first.due <= now {
            _ = removeEntry(at: 0)
            loop.vitals.timerFired(due: first.due, now: now)
            let timer = first.timer.takeUnretainedValue()
            if timer.period != 0 {
                // As `uv_timer_again`: due a period after the loop's time.
                let (due, overflow) = now.addingReportingOverflow(timer.period)
                insert(Entry(due: overflow ? .max : due, order: nextOrder, timer: first.timer))
                nextOrder &+= 1
                timer.expire()
            } else {
                timer.expire()
                first.timer.release()
            }
        }
        isExpiring = false
        guard let handle = handle?.resource, !heap.isEmpty else {
            closeHandle()
            return
        }
        do throws(UVError) {
            try arm(handle)
        } catch {
            report(error, ReportContext(loop: loop, handle: "timer"))
        }
    }

    // MARK: The handle

    private func makeHandle() throws(UVError) -> UVTimer {
        let handle = try UVTimer(loop: loop)
        handle.target = self
        self.handle = Owned(handle)
        return handle
    }

    /// Arms the handle for the earliest timer (`uv_timer_start`).
    private func arm(_ handle: UVTimer) throws(UVError) {
        guard let first = heap.first, armedDue != first.due else { return }
        let now = loop.clockMilliseconds
        try handle.start(milliseconds: first.due > now ? first.due - now : 0, periodMilliseconds: 0)
        armedDue = first.due
    }

    /// Closes the handle (`uv_close`): no timer is left.
    private func closeHandle() {
        handle.take()?.release()
        armedDue = nil
    }

    // MARK: The heap

    private func insert(_ entry: Entry) {
        heap.append(entry)
        let last = heap.count - 1
        heap.withUnsafeMutableBufferPointer { Self.siftUp(entry, from: last, in: $0) }
    }

    /// Takes the entry at `index` off the heap; its timer's index becomes -1
    /// and its reference passes to the caller.
    private func removeEntry(at index: Int) -> Entry {
        let removed = heap[index]
        let last = heap.removeLast()
        if index < heap.count {
            heap.withUnsafeMutableBufferPointer { heap in
                if index > 0, last.precedes(heap[(index - 1) / 2]) {
                    Self.siftUp(last, from: index, in: heap)
                } else {
                    Self.siftDown(last, from: index, in: heap)
                }
            }
        }
        Self.setIndex(-1, of: removed)
        return removed
    }

    // The sifts work on the heap's storage directly: one exclusive access
    // for the whole walk, no bounds or uniqueness check per step.

    /// Places `entry` at `index` or above, moving the entries it precedes down.
    private static func siftUp(_ entry: Entry, from index: Int, in heap: UnsafeMutableBufferPointer<Entry>) {
        var index = index
        while index > 0 {
            let parent = (index - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[index] = heap[parent]
            setIndex(index, of: heap[index])
            index = parent
        }
        heap[index] = entry
        setIndex(index, of: entry)
    }

    /// Places `entry` at `index` or below, moving the entries that precede
    /// it up.
    private static func siftDown(_ entry: Entry, from index: Int, in heap: UnsafeMutableBufferPointer<Entry>) {
        var index = index
        let count = heap.count
        while true {
            var child = 2 * index + 1
            if child >= count { break }
            if child + 1 < count, heap[child + 1].precedes(heap[child]) {
                child += 1
            }
            guard heap[child].precedes(entry) else { break }
            heap[index] = heap[child]
            setIndex(index, of: heap[index])
            index = child
        }
        heap[index] = entry
        setIndex(index, of: entry)
    }

    @inline(__always)
    private static func setIndex(_ index: Int, of entry: Entry) {
        entry.timer._withUnsafeGuaranteedRef { $0.heapIndex = index }
    }
}
