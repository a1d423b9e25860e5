/// An ordered set of commands looked up by key or by name.
///
///     var map = KeyMap()
///     map.add(Command("app.help", title: "Help", keys: [.character("?")]) { .handled })
///     map.command(for: .character("?"))?.name   // "app.help"
public struct KeyMap {
    public private(set) var commands: [Command] = []

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

    public func command(for key: Key) -> Command? {
        commands.first { $0.keys.contains(key) }
    }

    public func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }
}
