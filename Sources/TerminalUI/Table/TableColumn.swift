/// A column of a table: identifier, title, width, alignment, format and editor.
///
///     TableColumn("due", title: "Due", width: 16, format: .date(showsTime: true), editor: .date)
public struct TableColumn {
    /// The key the data source is asked for.
    public let id: String
    /// The text in the column's header; the identifier when none is given.
    public var title: String
    /// The width in cells, not counting the line after it; resizing the column changes it.
    public var width: Int
    /// The narrowest the column can be made by resizing it.
    public var minWidth: Int
    /// When the table is narrower than its columns, the width this column gives its space
    /// up to, so that the columns after it stay in view; `nil` keeps its width and leaves
    /// those columns to horizontal scrolling.
    public var compressedWidth: Int?
    /// Whether the column takes the width the table has to spare when its columns are
    /// narrower than the table, as a name column should, instead of leaving it blank after
    /// the last column. The first such column shown takes it all.
    public var fillsSpareWidth: Bool
    /// Nil aligns numbers right and everything else left.
    public var alignment: Alignment?
    /// Turns a cell's value into the text shown.
    public var format: ValueFormat
    /// Shown (dimmed) in a cell of no value, apart from an empty text; nil shows nothing.
    public var nilText: String?
    /// How the column's cells are edited, unless the data source names another editor for a cell;
    /// `.readOnly` by default.
    public var editor: EditorKind
    /// Whether the column is left out of the table; the user can hide and show columns.
    public var isHidden: Bool
    /// Whether the table can be sorted by this column.
    public var isSortable: Bool

    /// A column showing the values the data source gives for `id`; a `width` below 1 is a
    /// programming error and traps.
    public init(_ id: String, title: String? = nil, width: Int = 12, minWidth: Int = 3, compressedWidth: Int? = nil,
                fillsSpareWidth: Bool = false, alignment: Alignment? = nil, format: ValueFormat = .automatic,
                editor: EditorKind = .readOnly, isHidden: Bool = false, isSortable: Bool = true) {
        precondition(width >= 1, "column \(id) needs a width of at least 1, not \(width)")
        self.id = id
        self.title = title ?? id
        self.width = width
        self.minWidth = max(1, minWidth)
        self.compressedWidth = compressedWidth.map { max(1, min($0, width)) }
        self.fillsSpareWidth = fillsSpareWidth
        self.alignment = alignment
        self.format = format
        self.editor = editor
        self.isHidden = isHidden
        self.isSortable = isSortable
    }

    func alignment(for value: CellValue) -> Alignment {
        if let alignment { return alignment }
        return value.isNumeric ? .right : .left
    }
}
