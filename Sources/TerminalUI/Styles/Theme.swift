/// The styles of the roles views draw with.
///
///     var theme = Theme.standard
///     theme.selection = Style(reverse: true)
public struct Theme: Sendable, Hashable {
    public var normal: Style
    public var selection: Style
    public var selectedCell: Style
    public var inactiveSelection: Style
    public var header: Style
    public var statusBar: Style
    public var statusKey: Style
    public var border: Style
    public var focusedBorder: Style
    public var title: Style
    public var menuBar: Style
    public var menuSelection: Style
    public var editor: Style
    public var error: Style
    /// Values changed and not yet saved.
    public var modified: Style
    /// Values that need attention, such as a date that has passed.
    public var warning: Style
    public var dimmed: Style
    public var button: Style
    public var focusedButton: Style
    /// A marked row of a table, and its mark.
    public var marked: Style

    public init(normal: Style, selection: Style, selectedCell: Style, inactiveSelection: Style,
                header: Style, statusBar: Style, statusKey: Style, border: Style, focusedBorder: Style,
                title: Style, menuBar: Style, menuSelection: Style, editor: Style, error: Style,
                modified: Style, warning: Style, dimmed: Style, button: Style, focusedButton: Style,
                marked: Style = Style(bold: true)) {
        self.normal = normal
        self.selection = selection
        self.selectedCell = selectedCell
        self.inactiveSelection = inactiveSelection
        self.header = header
        self.statusBar = statusBar
        self.statusKey = statusKey
        self.border = border
        self.focusedBorder = focusedBorder
        self.title = title
        self.menuBar = menuBar
        self.menuSelection = menuSelection
        self.editor = editor
        self.error = error
        self.modified = modified
        self.warning = warning
        self.dimmed = dimmed
        self.button = button
        self.focusedButton = focusedButton
        self.marked = marked
    }

    /// Colours on 256- and 8-colour terminals; the driver drops colours on monochrome ones.
    public static let standard = Theme(
        normal: .plain,
        selection: Style(foreground: .white, background: .palette(24, fallback: .blue), bold: true),
        selectedCell: Style(foreground: .black, background: .palette(117, fallback: .cyan), bold: true),
        inactiveSelection: Style(background: .palette(238, fallback: .black), bold: true),
        header: Style(foreground: .palette(81, fallback: .cyan), bold: true, underline: false),
        statusBar: Style(foreground: .black, background: .palette(250, fallback: .white)),
        statusKey: Style(foreground: .white, background: .palette(24, fallback: .blue), bold: true),
        border: Style(foreground: .palette(244, fallback: .white), dim: false),
        focusedBorder: Style(foreground: .palette(81, fallback: .cyan), bold: true),
        title: Style(bold: true),
        menuBar: Style(foreground: .black, background: .palette(250, fallback: .white)),
        menuSelection: Style(foreground: .white, background: .palette(24, fallback: .blue), bold: true),
        editor: Style(foreground: .black, background: .palette(229, fallback: .yellow)),
        error: Style(foreground: .white, background: .palette(124, fallback: .red), bold: true),
        modified: Style(foreground: .palette(214, fallback: .yellow), bold: true),
        warning: Style(foreground: .palette(203, fallback: .red), bold: true),
        dimmed: Style(foreground: .palette(244, fallback: .white), dim: true),
        button: Style(foreground: .black, background: .palette(250, fallback: .white)),
        focusedButton: Style(foreground: .white, background: .palette(24, fallback: .blue), bold: true),
        marked: Style(foreground: .palette(156, fallback: .green), bold: true)
    )

    /// Attributes only, for terminals without colour or when `NO_COLOR` is set.
    public static let monochrome = Theme(
        normal: .plain,
        selection: Style(reverse: true),
        selectedCell: Style(bold: true, reverse: true, underline: true),
        inactiveSelection: Style(underline: true),
        header: Style(bold: true, underline: true),
        statusBar: Style(reverse: true),
        statusKey: Style(bold: true),
        border: .plain,
        focusedBorder: Style(bold: true),
        title: Style(bold: true),
        menuBar: Style(reverse: true),
        menuSelection: Style(bold: true),
        editor: Style(underline: true),
        error: Style(bold: true, reverse: true),
        modified: Style(bold: true, underline: true),
        warning: Style(bold: true),
        dimmed: Style(dim: true),
        button: Style(reverse: true),
        focusedButton: Style(bold: true, underline: true)
    )
}
