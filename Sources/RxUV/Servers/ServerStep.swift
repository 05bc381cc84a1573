/// The steps of a `Server`, asked on its first loop from any of its loops:
/// what `connections` tells its subscribers.
package enum ServerStep: UInt8, LoopStep {
    /// The connection count changed: emit it.
    case countChanged
    /// The drain is done: emit 0, then complete.
    case countsDrained
}
