/// An ordered set of commands looked up by key or by name.
///
///     var map = KeyMap()
///     map.add(Command("app.help", title: "Help", keys: [.character("?")]) { .handled })
///     map.command(for: .character("?"))?.name   // "app.help"
public struct KeyMap {
    /// The commands in the order they were added; a replaced command keeps its place.
    public private(set) var commands: [Command] = []

    /// A key map holding `commands`; of two with the same name, the later one is kept, in the
    /// earlier one's place.
    public init(_ commands: [Command] = []) {
        for command in commands { add(command) }
    }

    /// Add a command, replacing one with the same name.
    public mutating func add(_ command: Command) {
        if let index = commands.firstIndex(where: { $0.name == command.name }) {
            commands[index] = command
        } else {
            commands.append(command)
        }
    }

    /// Remove the command with this name, if there is one.
    public mutating func remove(named name: String) {
        commands.removeAll { $0.name == name }
    }

    /// Change the keys of a command.
    public mutating func rebind(_ name: String, to keys: [Key]) {
        guard let index = commands.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("no command named \(name) to rebind")
        }
        commands[index].keys = keys
    }

    /// The first command, in order, that `key` runs, or nil when no command has that key.
    public func command(for key: Key) -> Command? {
        commands.first { $0.keys.contains(key) }
    }

    /// The command with this name, or nil when there is none.
    public func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }
}
