/// A signal the driver caught and turned into an event, so the application can react its own way
/// (for example save, then quit).
public enum TerminalSignal: Hashable, Sendable {
    case interrupt, terminate, hangup
}
