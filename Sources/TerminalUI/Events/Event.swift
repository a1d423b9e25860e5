/// Something the application reacts to.
public enum Event: Hashable, Sendable {
    /// A key was pressed.
    case key(Key)
    /// The mouse was clicked, pressed, released or its wheel turned.
    case mouse(MouseEvent)
    /// The terminal changed size.
    case resize(Size)
    /// A signal arrived (SIGINT, SIGTERM, SIGHUP).
    case signal(TerminalSignal)
    /// A timer scheduled with `Application.schedule` is due.
    case timer(TimerID)
    /// Text the terminal marked as pasted (bracketed paste): typed into an open editor or
    /// prompt, never taken as commands.
    case paste(String)
    /// Standard input closed: nothing more will come.
    case inputClosed
}
