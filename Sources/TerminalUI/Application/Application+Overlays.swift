extension Application {
    /// Show the help overlay listing the commands that apply here.
    public func showHelp() {
        show(HelpOverlay(commands: offeredCommands))
    }

    /// Show the command palette over the commands that apply here.
    public func showCommandPalette() {
        let target = keyWindow
        let palette = CommandPalette(commands: liveCommands.filter { $0.name != "app.palette" })
        palette.onRun = { [weak self, weak target] command in
            guard let self else { return }
            // Runs after the palette closes, against the window it was opened over.
            self.deferred.append {
                let result = command.action()
                self.apply(result, to: target)
            }
        }
        show(palette)
    }

    /// Show a modal dialog with buttons; `completion` gets the pressed index, or nil for Esc.
    public func alert(title: String, message: String, buttons: [String] = ["OK"],
                      completion: ((Int?) -> Void)? = nil) {
        // The same question asked again while it is open (Ctrl-C pressed twice) is not stacked.
        if let open = windows.last as? Dialog, open.title == title, open.message == message { return }
        let dialog = Dialog(title: title, message: message, buttons: buttons)
        dialog.onChoice = completion
        show(dialog)
    }
}
