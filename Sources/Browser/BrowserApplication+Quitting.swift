import Foundation
import AppShell
import ObjectGraph
import TerminalUI

/// Leaving the browser: with unsaved changes it asks whether to save them first.
extension BrowserApplication {
    func installQuitting() {
        installQuitKeys()
        app.shouldQuit = { [weak self] in self?.shouldQuit() ?? true }
        app.onSignal = { [weak self] signal in
            guard let self else { return .quit }
            switch signal {
            case .interrupt: return self.shouldQuit() ? .quit : .redraw
            case .terminate, .hangup:
                // Nobody is there to answer a question: the browser writes only when told
                // to, so unsaved changes stay unsaved and the store as it was saved last.
                self.quitConfirmed = true
                return .quit
            }
        }
    }

    /// Quits at once without changes; otherwise asks whether to save them, discard them, or stay.
    func shouldQuit() -> Bool {
        if let now = quitWithoutQuestion(confirmed: quitConfirmed) { return now }
        guard !isReadOnly else { return true }
        let quit = { [weak self] in
            guard let self else { return }
            self.quitConfirmed = true
            self.app.requestQuit()
        }
        askToSaveBeforeQuitting(saveAndQuit: { [weak self] in
            guard let self, self.saveChanges(afterConflict: quit) else { return }
            quit()
        }, discardAndQuit: quit)
        return false
    }
}
