/// A pull-down menu of the menu bar: a title and items that run named commands.
///
///     Menu("File", items: [MenuItem("Save", command: "doc.save"), MenuItem("Quit", command: "app.quit")])
public struct Menu {
    /// The menu's name on the menu bar.
    public var title: String
    /// The entries, top to bottom.
    public var items: [MenuItem]

    /// A menu named `title` holding `items`.
    public init(_ title: String, items: [MenuItem]) {
        self.title = title
        self.items = items
    }
}

/// One entry of a menu, running the live command with that name.
public struct MenuItem {
    /// The entry's text; the keys of its command are shown beside it.
    public var title: String
    /// The name of the command it runs, looked up among the commands live when it is chosen.
    public var command: String

    /// An entry titled `title` that runs the command named `command`.
    public init(_ title: String, command: String) {
        self.title = title
        self.command = command
    }
}
