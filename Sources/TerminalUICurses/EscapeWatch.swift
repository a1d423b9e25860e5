import Foundation
import Synchronization

/// While the event loop has been busy with one event for a while (a store query that takes
/// seconds), a thread watches the terminal for Esc, which the loop cannot read then, and
/// calls `onEscape` to stop the work. Whatever else is typed meanwhile is kept, in order, and
/// handed back to the loop when it next reads keys; so is an Esc that stopped nothing.
final class EscapeWatch: Sendable {
    /// How long the loop is busy before Esc is watched for: a key's ordinary handling is over
    /// well before, and its Esc reaches the loop as usual.
    static let patience = 0.2
    /// How long after an ESC byte nothing more must come for it to be the Esc key rather than
    /// the start of an escape sequence (an arrow key, a paste).
    static let alone = 0.03

    /// Busy from the start: the application draws its first frame (which may read the store)
    /// before the loop first reads keys.
    private let state = Mutex(State(busySince: EscapeWatch.now()))
    private let running = Atomic<Bool>(true)

    private struct State {
        /// When the loop took the event it is busy with; nil while it waits for keys.
        var busySince: Double?
        /// Bytes read from the terminal while the loop was busy, for the loop.
        var held: [UInt8] = []
    }

    init(onEscape: @escaping @Sendable () -> Bool) {
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                if takeEscape() {
                    // Given back when nothing was stopped, so that the loop still sees it.
                    if !onEscape() { state.withLock { $0.held.append(0x1B) } }
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        thread.name = "termdata.escape-watch"
        thread.start()
    }

    func stop() { running.store(false, ordering: .releasing) }

    /// The loop has an event to handle: from now on it cannot read keys.
    func loopIsBusy() {
        state.withLock { $0.busySince = Self.now() }
    }

    /// The loop reads keys again: the bytes held for it, oldest first.
    func loopIsReading() -> [UInt8] {
        state.withLock { state in
            state.busySince = nil
            defer { state.held = [] }
            return state.held
        }
    }

    /// Reads what waits on the terminal while the loop has been busy long enough; true when
    /// it ends with an Esc that nothing followed, which is then taken out.
    private func takeEscape() -> Bool {
        guard readWaitingBytes(), state.withLock({ $0.held.last == 0x1B }) else { return false }
        Thread.sleep(forTimeInterval: Self.alone)
        return state.withLock { state in
            guard state.busySince != nil else { return false }
            _ = Self.read(into: &state.held)
            // An ESC with a byte after it starts a sequence; one alone is the key.
            guard state.held.last == 0x1B, state.held.dropLast().last != 0x1B else { return false }
            state.held.removeLast()
            return true
        }
    }

    /// Moves the bytes waiting on the terminal into `held`, if the loop is busy; whether it was.
    private func readWaitingBytes() -> Bool {
        state.withLock { state in
            guard let since = state.busySince, Self.now() - since >= Self.patience else { return false }
            return Self.read(into: &state.held)
        }
    }

    /// The most bytes held for the loop: what curses takes back (`ungetch`) is a short queue.
    static let holdLimit = 64

    /// Appends what standard input has now, without waiting; whether anything came. A few
    /// keys at a time: a paste, or more than the loop can be given back, stays where curses
    /// reads it.
    private static func read(into held: inout [UInt8]) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 else { return false }
        var waiting: Int32 = 0
        guard ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) == 0, waiting > 0, waiting <= 8,
              held.count + Int(waiting) <= holdLimit else { return false }
        var buffer = [UInt8](repeating: 0, count: Int(waiting))
        let count = buffer.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        held += buffer.prefix(count)
        return true
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
