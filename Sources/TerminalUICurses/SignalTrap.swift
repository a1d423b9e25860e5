import Foundation
@preconcurrency import CNcursesw

/// The last of SIGINT, SIGTERM or SIGHUP that arrived, or 0. Written by the signal handler,
/// read and cleared by the event loop.
nonisolated(unsafe) private var pendingSignal: Int32 = 0
nonisolated(unsafe) private var exitHookRegistered = false

/// Turns SIGINT, SIGTERM and SIGHUP into events, and restores the terminal on fatal signals and exit.
enum SignalTrap {
    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func install() {
        pendingSignal = 0
        for sig in caught {
            signal(sig) { number in pendingSignal = number }
        }
        shim_install_crash_handlers()
        if !exitHookRegistered {
            exitHookRegistered = true
            shim_register_atexit()
        }
    }

    static func remove() {
        for sig in caught { shim_signal_default(sig) }
        shim_remove_crash_handlers()
    }

    /// Whether a signal is waiting.
    static func peek() -> Bool { pendingSignal != 0 }

    /// The signal that arrived since the last call, if any.
    static func take() -> TerminalSignalNumber? {
        let number = pendingSignal
        guard number != 0 else { return nil }
        pendingSignal = 0
        return TerminalSignalNumber(number)
    }
}

/// A caught signal's number.
struct TerminalSignalNumber {
    let number: Int32
    init(_ number: Int32) { self.number = number }
}
