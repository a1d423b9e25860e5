/// Something the application reacts to.
public enum Event: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// The terminal changed size.
    case resize(Size)
    /// A signal arrived (SIGINT, SIGTERM, SIGHUP).
    case signal(TerminalSignal)
    /// A timer scheduled with `Application.schedule` is due.
    case timer(TimerID)
    /// Standard input closed: nothing more will come.
    case inputClosed
}
