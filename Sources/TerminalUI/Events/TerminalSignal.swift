/// A signal the driver caught and turned into an event, so the application can react its own way
/// (for example save, then quit).
public enum TerminalSignal: Hashable, Sendable {
    /// SIGINT (`interrupt`), SIGTERM (`terminate`) and SIGHUP (`hangup`, which is also what
    /// `Application.onSignal` is given when the input ends).
    case interrupt, terminate, hangup
}
