import RxCoreTestSupport
import XCTest

@testable import RxCore

/// `Bag`: keys remove exactly their element, order is insertion order
/// whatever was removed, and removal from the middle leaves nothing behind
/// that iteration, `count` or a later removal could see.
final class BagTests: RxCoreTestCase {
    func testRemovingEveryOtherFromTheMiddle_KeepsTheRestInOrder() {
        var bag = Bag<Int>()
        let keys = (0..<1000).map { bag.insert($0) }
        for (value, key) in zip(0..., keys) where value % 2 == 1 {
            XCTAssertEqual(bag.removeKey(key), value)
        }
        XCTAssertEqual(bag.count, 500)
        XCTAssertEqual(bag.elements, Array(stride(from: 0, to: 1000, by: 2)))
        var visited: [Int] = []
        bag.forEach { visited.append($0) }
        XCTAssertEqual(visited, bag.elements)
    }

    func testRemovedKeys_RemoveNothingAndReplaceNothing() {
        var bag = Bag<String>()
        let first = bag.insert("a")
        let second = bag.insert("b")
        let third = bag.insert("c")
        XCTAssertEqual(bag.removeKey(second), "b")
        XCTAssertNil(bag.removeKey(second))
        XCTAssertFalse(bag.replace(second, with: "B"))
        XCTAssertTrue(bag.replace(third, with: "C"))
        var removed = "none"
        XCTAssertFalse(bag.removeKey(second, into: &removed))
        XCTAssertEqual(removed, "none")
        XCTAssertTrue(bag.removeKey(first, into: &removed))
        XCTAssertEqual(removed, "a")
        XCTAssertEqual(bag.elements, ["C"])
        XCTAssertEqual(bag.count, 1)
    }

    func testCompaction_KeepsEveryKeyValid() {
        // Enough removals from the front to compact several times, with
        // insertions in between: every surviving key still finds its value.
        var bag = Bag<Int>()
        var live: [(BagKey, Int)] = []
        var next = 0
        for round in 0..<20 {
            for _ in 0..<50 {
                live.append((bag.insert(next), next))
                next += 1
            }
            let removed = live.prefix(40 + round % 7)
            for (key, value) in removed {
                XCTAssertEqual(bag.removeKey(key), value)
            }
            live.removeFirst(removed.count)
            XCTAssertEqual(bag.count, live.count)
            XCTAssertEqual(bag.elements, live.map(\.1))
        }
        for (key, value) in live.reversed() {
            XCTAssertEqual(bag.removeKey(key), value)
        }
        XCTAssertTrue(bag.isEmpty)
        XCTAssertEqual(bag.elements, [])
    }

    func testRemovingTheNewest_AfterHolesBeforeIt_LeavesAnEmptyBag() {
        var bag = Bag<Int>()
        let keys = (0..<5).map { bag.insert($0) }
        for key in keys.prefix(4) {
            bag.removeKey(key)
        }
        XCTAssertEqual(bag.elements, [4])
        XCTAssertEqual(bag.removeKey(keys[4]), 4)
        XCTAssertTrue(bag.isEmpty)
        let again = bag.insert(9)
        XCTAssertEqual(bag.elements, [9])
        XCTAssertEqual(bag.removeKey(again), 9)
    }

    func testKeysMadeAhead_InsertedLateOrOutOfOrder_KeepKeyOrder() {
        var bag = Bag<Int>()
        let first = bag.makeKey()
        let second = bag.insert(2)
        let third = bag.makeKey()
        let fourth = bag.insert(4)
        bag.insert(3, for: third)
        bag.insert(1, for: first)
        XCTAssertEqual(bag.elements, [1, 2, 3, 4])
        XCTAssertEqual(bag.count, 4)
        XCTAssertEqual(bag.removeKey(third), 3)
        XCTAssertEqual(bag.removeKey(first), 1)
        XCTAssertEqual(bag.removeKey(fourth), 4)
        XCTAssertEqual(bag.elements, [2])
        let fifth = bag.makeKey()
        bag.insert(5, for: fifth)
        XCTAssertEqual(bag.elements, [2, 5])
        XCTAssertEqual(bag.removeKey(second), 2)
        XCTAssertEqual(bag.removeKey(fifth), 5)
        XCTAssertTrue(bag.isEmpty)
    }

    func testAKeyMadeAheadAndNeverInserted_RemovesNothing() {
        var bag = Bag<Int>()
        let unused = bag.makeKey()
        let kept = bag.insert(1)
        XCTAssertNil(bag.removeKey(unused))
        XCTAssertFalse(bag.replace(unused, with: 9))
        XCTAssertEqual(bag.elements, [1])
        XCTAssertEqual(bag.removeKey(kept), 1)
    }
}
