/// A named action with its keys: the one table that key handling, the help overlay,
/// the command palette, menus and tests all read.
///
///     Command("app.quit", title: "Quit", keys: [.character("q"), .function(10)]) { .quit }
public struct Command {
    /// A stable identifier such as `table.edit`, used by menus and tests.
    public let name: String
    /// What the help screen and the palette show.
    public let title: String
    /// The keys that run it; empty for palette-only commands.
    public var keys: [Key]
    /// Whether the status bar offers it as a hint.
    public var isHint: Bool
    /// The short label of the status bar hint.
    public var hintLabel: String?
    /// What the help screen shows for keys that are typed rather than pressed (`0–9`).
    public var typedKeys: String?
    /// What running the command does; the result tells the application whether to redraw, close the
    /// window or quit.
    public let action: () -> EventResult

    /// A command named `name`, shown as `title` and run by `keys`; a `hint` label also offers it in
    /// the status bar.
    public init(_ name: String, title: String, keys: [Key] = [], hint: String? = nil,
                action: @escaping () -> EventResult) {
        self.name = name
        self.title = title
        self.keys = keys
        self.isHint = hint != nil
        self.hintLabel = hint
        self.action = action
    }

    /// The keys as the help screen writes them: `j, ↓`.
    public var keyLabel: String { typedKeys ?? keys.map(\.description).joined(separator: ", ") }

    /// Whether it runs only from the palette: no key runs it and nothing is typed for it.
    public var isPaletteOnly: Bool { keys.isEmpty && typedKeys == nil }
}
