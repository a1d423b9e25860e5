extension Application {
    // MARK: Commands

    /// The commands that apply now: those of the focused view and its ancestors, then the
    /// global ones (unless a modal window is on top). The help overlay and palette list these.
    public var liveCommands: [Command] { commands(reachableByKey: false) }

    /// The live commands as the hints and the help offer them: while an editor takes typed
    /// characters, `q` or `?` type themselves, so commands bound only to characters
    /// elsewhere are left out (the menu still runs them).
    public var offeredCommands: [Command] { commands(reachableByKey: true) }

    private func commands(reachableByKey: Bool) -> [Command] {
        var result: [Command] = []
        var seen = Set<String>()
        // A key is taken by the first command that binds it, the nearest view's: an open
        // editor's Tab stores the edit, so the window's Tab (next pane) is not offered.
        var taken = Set<Key>()
        let typing = reachableByKey && keyWindow?.focusedView?.capturesTyping == true
        func offer(_ command: Command, from view: View?) {
            guard !seen.contains(command.name) else { return }
            seen.insert(command.name)
            guard reachableByKey else { return result.append(command) }
            var reachable = command
            reachable.keys.removeAll { key in
                if taken.contains(key) { return true }
                if typing, view !== keyWindow?.focusedView, case .character = key { return true }
                return false
            }
            taken.formUnion(command.keys)
            if reachable.keys.isEmpty && !command.keys.isEmpty { return }
            result.append(reachable)
        }
        if let window = keyWindow {
            for view in window.responderChain {
                for command in view.commands { offer(command, from: view) }
            }
            if window.isModal { return result }
        }
        for command in keyMap.commands { offer(command, from: nil) }
        return result
    }

    /// Run a live command by name, as a key or menu would.
    @discardableResult
    public func perform(_ name: String) -> EventResult {
        guard let command = liveCommands.first(where: { $0.name == name }) else {
            showMessage("Not available here: \(name)", isError: true)
            return .needsRedraw
        }
        let result = command.action()
        apply(result, to: keyWindow)
        return result
    }

    func installStandardCommands() {
        keyMap.add(Command("app.quit", title: "Quit", keys: [.character("q"), .control("q")], hint: "Quit") { [weak self] in
            self?.requestQuit()
            return .handled
        })
        keyMap.add(Command(StatusBar.helpCommandName, title: "Help: list keys", keys: [.character("?"), .function(1)], hint: "Help") { [weak self] in
            self?.showHelp()
            return .redraw
        })
        keyMap.add(Command("app.palette", title: "Command palette", keys: [.character(":"), .control("p")]) { [weak self] in
            self?.showCommandPalette()
            return .redraw
        })
        keyMap.add(Command("app.menu", title: "Open the menu bar", keys: [.function(9), .function(10)], hint: "Menu") { [weak self] in
            guard let self, let menuBar = self.menuBar else { return .ignored }
            menuBar.open(0)
            return .redraw
        })
        keyMap.add(Command("app.nextPane", title: "Next pane", keys: [.tab]) { [weak self] in
            self?.keyWindow?.focusNext(forward: true)
            return .redraw
        })
        keyMap.add(Command("app.previousPane", title: "Previous pane", keys: [.backTab]) { [weak self] in
            self?.keyWindow?.focusNext(forward: false)
            return .redraw
        })
        keyMap.add(Command("app.suspend", title: "Suspend to the shell (fg returns)", keys: [.control("z")]) { [weak self] in
            self?.driver.suspend()
            self?.driver.invalidate()
            return .redraw
        })
        keyMap.add(Command("app.redraw", title: "Redraw the screen", keys: [.control("l")]) { [weak self] in
            self?.driver.invalidate()
            return .redraw
        })
    }
}
