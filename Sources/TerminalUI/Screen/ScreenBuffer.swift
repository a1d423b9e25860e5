/// A grid of cells that views draw into and drivers show.
///
///     let screen = ScreenBuffer(size: Size(width: 20, height: 2))
///     var canvas = Canvas(screen)
///     canvas.write("日本", x: 0, y: 0)
///     screen.lines   // ["日本", ""]
public final class ScreenBuffer {
    /// The number of columns and rows; changed only by `resize(to:)`.
    public private(set) var size: Size
    /// Written for every cell of every frame, on the loop's thread only, and never across a
    /// call that could reach it again: the run-time exclusivity checks are left out.
    @exclusivity(unchecked) public private(set) var cells: [Cell]
    /// Where the terminal cursor should show, or nil to hide it.
    public var cursor: Point?
    /// Drawing to repeat once every view is drawn (`Canvas.drawOnTop`).
    private var overlays: [() -> Void] = []

    /// A buffer of `size` (a negative width or height taken as zero) with every cell set to `fill`.
    public init(size: Size, fill: Cell = .blank) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        self.cells = Array(repeating: fill, count: self.size.width * self.size.height)
    }

    /// A separate buffer with the same contents.
    public func copy() -> ScreenBuffer {
        let other = ScreenBuffer(size: .zero)
        other.size = size
        other.cells = cells
        other.cursor = cursor
        return other
    }

    /// Blank every cell.
    public func clear(style: Style = .plain) {
        let blank = Cell(" ", width: 1, style: style)
        for i in cells.indices { cells[i] = blank }
        cursor = nil
        overlays = []
    }

    /// Keeps drawing to repeat after the rest of the frame.
    func addOverlay(_ draw: @escaping () -> Void) { overlays.append(draw) }

    /// Draws again what views asked to keep on top, over whatever was drawn after them;
    /// called once each window's views are drawn.
    public func drawOverlays() {
        let pending = overlays
        overlays = []
        for draw in pending { draw() }
    }

    /// Resize, blanking every cell.
    public func resize(to newSize: Size) {
        size = Size(width: max(0, newSize.width), height: max(0, newSize.height))
        cells = Array(repeating: .blank, count: size.width * size.height)
        cursor = nil
    }

    /// The cell at column `x`, row `y`, which must lie inside `size`: the position is not checked.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
    }

    /// Put a cell, keeping two-cell characters whole: a wide character half overwritten
    /// becomes a blank, and one that would hang over the right edge is not drawn.
    public func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let row = y * size.width
        let old = cells[row + x]
        if old.isContinuation, x > 0 {
            cells[row + x - 1] = Cell(" ", width: 1, style: cells[row + x - 1].style)
        }
        if old.width == 2, x + 1 < size.width, cell.width != 2 {
            cells[row + x + 1] = Cell(" ", width: 1, style: cells[row + x + 1].style)
        }
        if cell.width == 2 {
            guard x + 1 < size.width else {
                cells[row + x] = Cell(" ", width: 1, style: cell.style)
                return
            }
            let next = cells[row + x + 1]
            if next.width == 2, x + 2 < size.width {
                cells[row + x + 2] = Cell(" ", width: 1, style: cells[row + x + 2].style)
            }
            cells[row + x] = cell
            cells[row + x + 1] = .continuation(style: cell.style)
        } else {
            cells[row + x] = cell
        }
    }

    /// Row `y` as text: continuation cells skipped, trailing spaces removed.
    public func line(_ y: Int) -> String {
        var text = ""
        text.reserveCapacity(size.width)
        for x in 0..<size.width {
            let cell = cells[y * size.width + x]
            if !cell.isContinuation { text.append(cell.character) }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row as text, for comparing screens in tests.
    public var lines: [String] { (0..<size.height).map(line) }

    /// The runs of cells that differ from `previous`, row by row; every cell when the sizes differ.
    public func changes(since previous: ScreenBuffer?) -> [ScreenChange] {
        var result: [ScreenChange] = []
        let full = previous == nil || previous!.size != size
        for y in 0..<size.height {
            let row = y * size.width
            var x = 0
            while x < size.width {
                if !full, cells[row + x] == previous!.cells[row + x] { x += 1; continue }
                var end = x
                while end < size.width, full || cells[row + end] != previous!.cells[row + end] { end += 1 }
                if end < size.width, cells[row + end].isContinuation { end += 1 }
                var start = x
                if cells[row + start].isContinuation, start > 0 { start -= 1 }
                result.append(ScreenChange(y: y, x: start, cells: Array(cells[(row + start)..<(row + end)])))
                x = end
            }
        }
        return result
    }
}
