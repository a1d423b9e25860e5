import ArgumentParser
import TerminalUI

extension TerminalSignal {
    /// The status a program exits with after quitting on this signal: 128 and its number.
    var exitCode: ExitCode {
        switch self {
        case .interrupt: return ExitCode(128 + 2)
        case .hangup: return ExitCode(128 + 1)
        case .terminate: return ExitCode(128 + 15)
        }
    }
}
