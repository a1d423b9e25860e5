/// A pull-down menu of the menu bar: a title and items that run named commands.
///
///     Menu("File", items: [MenuItem("Save", command: "doc.save"), MenuItem("Quit", command: "app.quit")])
public struct Menu {
    public var title: String
    public var items: [MenuItem]

    public init(_ title: String, items: [MenuItem]) {
        self.title = title
        self.items = items
    }
}

/// One entry of a menu, running the live command with that name.
public struct MenuItem {
    public var title: String
    public var command: String

    public init(_ title: String, command: String) {
        self.title = title
        self.command = command
    }
}
