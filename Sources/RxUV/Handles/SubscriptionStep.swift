/// The steps of the one handle-owning subscription (`HandleSink`), asked
/// through the loop's door by the subscription itself.
package enum SubscriptionStep: UInt8, LoopStep {
    /// Open what the subscription owns (`HandleSink.start`).
    case open
    /// Release what it owns, then `didRelease()` (`HandleSink.dispose()`).
    case close
}
