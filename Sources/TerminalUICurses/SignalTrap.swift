import Foundation
import Synchronization
@preconcurrency import CNcursesw

/// The last of SIGINT, SIGTERM or SIGHUP that arrived, or 0. Written by the signal handler,
/// read and cleared by the event loop, read by the watchdog: lock-free atomics, which a
/// signal handler may use.
private let pendingSignal = Atomic<Int32>(0)
nonisolated(unsafe) private var exitHookRegistered = false
/// The signals that arrived since `install`, one bit each: written by the handler.
private let receivedSignals = Atomic<UInt64>(0)
/// Whether the program was continued (SIGCONT, after Ctrl-Z and `fg`) since the loop last looked.
private let continued = Atomic<Bool>(false)

/// Turns SIGINT, SIGTERM and SIGHUP into events, and restores the terminal on fatal signals and exit.
enum SignalTrap {
    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func install() {
        pendingSignal.store(0, ordering: .relaxed)
        receivedSignals.store(0, ordering: .relaxed)
        for sig in caught {
            signal(sig) { number in
                pendingSignal.store(number, ordering: .releasing)
                receivedSignals.bitwiseOr(1 << UInt64(number), ordering: .relaxed)
            }
        }
        // The program goes on after SIGCONT whatever the handler; the handler tells the loop,
        // which draws the whole screen again: ncurses' own redraw after a suspend runs in its
        // signal handler, on whichever thread took the signal, and was seen not to happen.
        continued.store(false, ordering: .relaxed)
        signal(SIGCONT) { _ in continued.store(true, ordering: .releasing) }
        shim_install_crash_handlers()
        if !exitHookRegistered {
            exitHookRegistered = true
            shim_register_atexit()
        }
    }

    /// Gives the signals back to their default actions, except a hangup or termination that
    /// already arrived: the program is ending because of it, and a second one (a dying shell
    /// sends SIGHUP twice within milliseconds) must not kill it before it has finished.
    static func remove() {
        for sig in caught {
            if [SIGHUP, SIGTERM].contains(sig), receivedSignals.load(ordering: .relaxed) & (1 << UInt64(sig)) != 0 {
                signal(sig, SIG_IGN)
            } else {
                shim_signal_default(sig)
            }
        }
        shim_signal_default(SIGCONT)
        shim_remove_crash_handlers()
    }

    /// Whether the program was continued after a stop since the last call.
    static func takeContinued() -> Bool { continued.exchange(false, ordering: .acquiringAndReleasing) }

    /// Whether a signal is waiting.
    static func peek() -> Bool { pendingSignal.load(ordering: .acquiring) != 0 }

    /// The signal that arrived since the last call, if any.
    static func take() -> TerminalSignalNumber? {
        let number = pendingSignal.exchange(0, ordering: .acquiringAndReleasing)
        guard number != 0 else { return nil }
        return TerminalSignalNumber(number)
    }
}

/// A caught signal's number.
struct TerminalSignalNumber {
    let number: Int32
    init(_ number: Int32) { self.number = number }
}
