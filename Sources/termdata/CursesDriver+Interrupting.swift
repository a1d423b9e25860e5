import ObjectGraph
import TerminalUICurses

extension CursesDriver {
    /// A driver whose watchdog stops a store query of `coordinator` when a signal waits for
    /// the event loop (Ctrl-C, SIGTERM, a hangup during a filter that takes minutes).
    static func stoppingWork(of coordinator: PersistentStoreCoordinator) -> CursesDriver {
        let driver = CursesDriver()
        driver.onPendingSignal = { coordinator.interruptWork() }
        return driver
    }
}
