import ObjectGraph
import TerminalUICurses

extension CursesDriver {
    /// A driver that stops a store query of `coordinator` running on the event loop when a
    /// signal waits for the loop (Ctrl-C, SIGTERM, a hangup during a filter that takes
    /// minutes) or Esc is pressed while the loop is busy.
    static func stoppingWork(of coordinator: PersistentStoreCoordinator) -> CursesDriver {
        let driver = CursesDriver()
        driver.onPendingSignal = { coordinator.interruptWork() }
        driver.onEscapeWhileBusy = { coordinator.interruptWork() }
        return driver
    }
}
