/// The top line with pull-down menus, opened with F9/F10 or a click.
///
/// While open, ←/→ switch menus, ↑/↓ (or j/k) pick an item, Enter runs it, Esc closes.
///
///     app.menuBar = MenuBar([Menu("File", items: [MenuItem("Quit", command: "app.quit")])])
public final class MenuBar: View {
    /// The menus, left to right.
    public var menus: [Menu]
    /// The open menu, if any.
    public private(set) var openIndex: Int?
    /// The highlighted item of the open menu.
    public private(set) var selectedItem = 0
    private var chosenCommand: String?
    /// The keys of a command by name, as the menu shows them beside its title; the
    /// application answers from the commands live at the time, so the menu can never
    /// disagree with the keys.
    var keyLabel: (String) -> String? = { _ in nil }

    /// A menu bar holding `menus`, all closed.
    public init(_ menus: [Menu]) {
        self.menus = menus
        super.init()
    }

    /// Whether a menu is open.
    public var isOpen: Bool { openIndex != nil }

    /// Open the menu at `index` with its first item highlighted; an index out of range does nothing.
    public func open(_ index: Int) {
        guard menus.indices.contains(index) else { return }
        openIndex = index
        selectedItem = 0
    }

    /// Close the open menu, if any.
    public func close() { openIndex = nil }

    /// The command the user picked, once.
    func takeChosenCommand() -> String? {
        defer { chosenCommand = nil }
        return chosenCommand
    }

    /// Column of each menu title on the bar.
    private var titleColumns: [Int] {
        var x = 1
        return menus.map { menu in
            defer { x += menu.title.displayWidth + 2 }
            return x
        }
    }

    /// Draws the bar with each menu's title, the open menu's title highlighted; the open
    /// menu itself is drawn over the screen by `drawDropdown(in:)`.
    public override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        canvas.fill(canvas.bounds, style: theme.menuBar)
        for (index, column) in titleColumns.enumerated() {
            let style = index == openIndex ? theme.menuSelection : theme.menuBar
            canvas.write(" \(menus[index].title) ", x: column - 1, y: 0, style: style)
        }
    }

    /// The lines of a menu's items: each title, and its keys aligned on the right.
    func itemLines(of menu: Menu) -> [String] {
        let labels = menu.items.map { keyLabel($0.command) ?? "" }
        let titleWidth = menu.items.map(\.title.displayWidth).max() ?? 0
        let labelWidth = labels.map(\.displayWidth).max() ?? 0
        return zip(menu.items, labels).map { item, label in
            guard labelWidth > 0 else { return item.title }
            let gap = titleWidth - item.title.displayWidth + 2 + labelWidth - label.displayWidth
            return item.title + String(repeating: " ", count: gap) + label
        }
    }

    /// Draw the open menu over everything else, on the whole-screen canvas.
    func drawDropdown(in canvas: Canvas) {
        guard let openIndex else { return }
        let menu = menus[openIndex]
        let lines = itemLines(of: menu)
        let width = (lines.map(\.displayWidth).max() ?? 0) + 4
        let x = min(titleColumns[openIndex] - 1, max(0, canvas.size.width - width))
        let rect = Rect(x: x, y: 1, width: width, height: menu.items.count + 2)
        let theme = canvas.theme
        canvas.fill(rect, style: theme.menuBar)
        canvas.box(rect, style: theme.menuBar)
        for i in menu.items.indices {
            let style = i == selectedItem ? theme.menuSelection : theme.menuBar
            canvas.write(" " + lines[i], x: rect.x + 1, y: rect.y + 1 + i, width: width - 2, style: style)
        }
    }

    func handleKey(_ key: Key) -> EventResult {
        guard let openIndex else { return .ignored }
        let count = menus[openIndex].items.count
        switch key {
        case .escape, .function(9), .function(10):
            close()
        case .left, .character("h"):
            open((openIndex - 1 + menus.count) % menus.count)
        case .right, .character("l"):
            open((openIndex + 1) % menus.count)
        case .down, .character("j"):
            if count > 0 { selectedItem = (selectedItem + 1) % count }
        case .up, .character("k"):
            if count > 0 { selectedItem = (selectedItem - 1 + count) % count }
        case .enter, .character(" "):
            if count > 0 { chosenCommand = menus[openIndex].items[selectedItem].command }
            close()
        default:
            break
        }
        return .redraw
    }

    /// Clicks on the bar open menus; clicks on an item run it; clicks elsewhere close.
    func handleMouse(_ mouse: MouseEvent) -> EventResult {
        guard mouse.kind == .click || mouse.kind == .press else { return isOpen ? .handled : .ignored }
        let p = mouse.position
        if p.y == 0 {
            for (index, column) in titleColumns.enumerated()
            where p.x >= column - 1 && p.x < column + menus[index].title.displayWidth + 1 {
                if openIndex == index { close() } else { open(index) }
                return .redraw
            }
            close()
            return .redraw
        }
        if let openIndex {
            let menu = menus[openIndex]
            let row = p.y - 2
            let width = (itemLines(of: menu).map(\.displayWidth).max() ?? 0) + 4
            if menu.items.indices.contains(row), p.x >= titleColumns[openIndex] - 1,
               p.x < titleColumns[openIndex] - 1 + width {
                chosenCommand = menu.items[row].command
            }
            close()
            return .redraw
        }
        return .ignored
    }
}
