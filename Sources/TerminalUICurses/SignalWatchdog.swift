import Foundation
import Synchronization

/// A thread that looks for a caught signal the event loop has not taken yet, and reports it
/// every 50 ms until the loop does: the loop may be busy in a query that only another thread
/// can stop.
final class SignalWatchdog: Sendable {
    private let running = Atomic<Bool>(true)

    init(_ onPendingSignal: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                if SignalTrap.peek() { onPendingSignal() }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        thread.name = "termdata.signal-watchdog"
        thread.start()
    }

    func stop() { running.store(false, ordering: .releasing) }
}
