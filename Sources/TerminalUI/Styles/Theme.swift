/// The styles of the roles views draw with.
///
///     var theme = Theme.standard
///     theme.selection = Style(reverse: true)
public struct Theme: Sendable, Hashable {
    /// Ordinary text, and the background of windows and views.
    public var normal: Style
    /// The selected row of a focused table, the focused field of a focused form, and the
    /// highlighted command of the palette.
    public var selection: Style
    /// The selected cell within the selected row of a focused table, and the picked part of a date
    /// being edited.
    public var selectedCell: Style
    /// The selected row of a table, or the focused field of a form, while the view does not have the keyboard.
    public var inactiveSelection: Style
    /// Column titles, headings, the label of the focused form field, key names in the help, and the
    /// prompt's label.
    public var header: Style
    /// The status bar: its background, hint labels, status text and messages.
    public var statusBar: Style
    /// The key names of the status bar's hints.
    public var statusKey: Style
    /// Borders of windows without the keys, table rules and column lines, and dividers between panes.
    public var border: Style
    /// The border of the window that gets the keys.
    public var focusedBorder: Style
    /// Window titles in the top border (bolded on the window that gets the keys).
    public var title: Style
    /// The menu bar, its open menu, and a choice editor's popup list.
    public var menuBar: Style
    /// The open menu's title, the highlighted menu item, and the highlighted option of a choice list.
    public var menuSelection: Style
    /// An editor open in a cell or field, and a focused text field.
    public var editor: Style
    /// Error messages: under a cell or field, in the status bar, and the notice that the screen is too small.
    public var error: Style
    /// Values changed and not yet saved.
    public var modified: Style
    /// Values that need attention, such as a date that has passed.
    public var warning: Style
    /// Text of less interest: placeholders, no-value text, footers, notes, read-only values and dimmed cells.
    public var dimmed: Style
    /// A dialog's buttons.
    public var button: Style
    /// A dialog's highlighted button.
    public var focusedButton: Style
    /// A marked row of a table, and its mark.
    public var marked: Style

    /// A theme with a style for every role; `marked` is bold unless given.
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
