/// Why the terminal could not be used.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    /// Standard input or output is not a terminal, or `TERM` is unset or unknown.
    case noTerminal(String)

    /// The error in words: `no terminal: ` and the reason.
    public var description: String {
        switch self {
        case let .noTerminal(reason): return "no terminal: \(reason)"
        }
    }
}
