/// A view's window onto the screen buffer: local coordinates, clipped to the view and the screen.
///
/// Drawing outside the clip is silently dropped, so rendering never fails.
///
///     var canvas = Canvas(screen).subcanvas(Rect(x: 2, y: 1, width: 10, height: 3))
///     canvas.write("Hello", x: 0, y: 0, style: .plain.bolded)
public struct Canvas {
    /// The screen buffer drawn into, shared by every canvas cut from it.
    public let buffer: ScreenBuffer
    /// Absolute position of local (0, 0).
    public let origin: Point
    /// The local size of the area this canvas stands for.
    public let size: Size
    /// Absolute area drawing may touch.
    public let clip: Rect
    /// The styles views draw their roles in (`theme.header`, `theme.selection`).
    public var theme: Theme

    /// A canvas on the whole of `buffer`, drawing in `theme`'s styles.
    public init(_ buffer: ScreenBuffer, theme: Theme = .standard) {
        self.buffer = buffer
        self.origin = .zero
        self.size = buffer.size
        self.clip = Rect(origin: .zero, size: buffer.size)
        self.theme = theme
    }

    init(buffer: ScreenBuffer, origin: Point, size: Size, clip: Rect, theme: Theme) {
        self.buffer = buffer
        self.origin = origin
        self.size = size
        self.clip = clip
        self.theme = theme
    }

    /// The canvas's area in its own coordinates: `size` at (0, 0).
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// A canvas on the whole screen, for what may reach past this view (a popup list).
    public var wholeScreen: Canvas {
        Canvas(buffer: buffer, origin: .zero, size: buffer.size, clip: Rect(origin: .zero, size: buffer.size), theme: theme)
    }

    /// Draws on the whole screen what reaches past this view (a choice list, an editor's
    /// message), now and again once the window's views are drawn, so that the views drawn
    /// after this one do not cover it; the windows above it still do. `rect` is given in this
    /// canvas's coordinates and passed to `body` in the screen's.
    public func drawOnTop(_ rect: Rect, _ body: @escaping (Canvas, Rect) -> Void) {
        let screen = wholeScreen
        let placed = absolute(rect)
        body(screen, placed)
        buffer.addOverlay { body(screen, placed) }
    }

    /// A rect of this canvas in screen coordinates.
    public func absolute(_ rect: Rect) -> Rect { rect.offsetBy(dx: origin.x, dy: origin.y) }

    /// A canvas for `rect`, given in this canvas's coordinates.
    public func subcanvas(_ rect: Rect) -> Canvas {
        let absolute = rect.offsetBy(dx: origin.x, dy: origin.y)
        return Canvas(buffer: buffer, origin: absolute.origin, size: rect.size,
                      clip: clip.intersection(absolute), theme: theme)
    }

    private func visible(_ x: Int, _ y: Int, width: Int = 1) -> Bool {
        let ax = origin.x + x, ay = origin.y + y
        return ax >= clip.x && ay >= clip.y && ay < clip.maxY && ax + width <= clip.maxX
    }

    /// Put one character; a wide one that does not fit whole leaves a blank. A cluster of
    /// several terminal units (a joined emoji sequence, a flag) takes a cell run per unit.
    public func put(_ character: Character, x: Int, y: Int, style: Style) {
        if !character.isASCII, character.unicodeScalars.count > 1, case let units = DisplayWidth.units(of: character), units.count > 1 {
            var x = x
            for unit in units {
                put(unit, x: x, y: y, style: style)
                x += DisplayWidth.of(unit)
            }
            return
        }
        let width = DisplayWidth.of(character)
        if width == 2, !visible(x, y, width: 2) {
            if visible(x, y) { buffer.set(Cell(" ", width: 1, style: style), x: origin.x + x, y: origin.y + y) }
            return
        }
        guard visible(x, y, width: max(1, width)) else { return }
        if width == 0 {
            buffer.set(Cell(" ", width: 1, style: style), x: origin.x + x, y: origin.y + y)
            return
        }
        buffer.set(Cell(character, width: width, style: style), x: origin.x + x, y: origin.y + y)
    }

    /// Write text from (x, y), at most `maxWidth` cells; returns the cells used.
    @discardableResult
    public func write(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        let limit = maxWidth ?? (size.width - x)
        guard limit > 0, y >= 0, y < size.height else { return 0 }
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if used + w > limit { break }
            put(Self.visible(character), x: x + used, y: y, style: style)
            used += w
        }
        return used
    }

    /// A control character as its control picture (`\n` as `␊`, DEL as `␡`), so that it
    /// takes its cell visibly instead of moving the terminal's cursor.
    static func visible(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F else { return character }
        let picture = scalar.value == 0x7F ? 0x2421 : 0x2400 + scalar.value
        return Character(Unicode.Scalar(picture)!)
    }

    /// Write text cut or padded to exactly `width` cells.
    public func write(_ text: String, x: Int, y: Int, width: Int, alignment: Alignment = .left, style: Style) {
        guard width > 0 else { return }
        write(text.padded(toWidth: width, alignment: alignment), x: x, y: y, style: style, maxWidth: width)
    }

    /// Fill a rectangle with one character.
    public func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        // A character of one cell (a space, most often): one cell made, and the clipping
        // worked out once rather than per cell.
        if character.unicodeScalars.count == 1, DisplayWidth.of(character) == 1 {
            let shown = absolute(area).intersection(clip)
            guard !shown.isEmpty else { return }
            let cell = Cell(character, width: 1, style: style)
            for y in shown.y..<shown.maxY {
                for x in shown.x..<shown.maxX { buffer.set(cell, x: x, y: y) }
            }
            return
        }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { put(character, x: x, y: y, style: style) }
        }
    }

    /// A horizontal line of `─`.
    public func horizontalLine(x: Int, y: Int, width: Int, style: Style) {
        for i in 0..<max(0, width) { put("─", x: x + i, y: y, style: style) }
    }

    /// A box drawn with line characters, with an optional title in the top edge.
    public func box(_ rect: Rect, style: Style, title: String? = nil, titleStyle: Style? = nil) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        put("┌", x: rect.x, y: rect.y, style: style)
        put("┐", x: rect.maxX - 1, y: rect.y, style: style)
        put("└", x: rect.x, y: rect.maxY - 1, style: style)
        put("┘", x: rect.maxX - 1, y: rect.maxY - 1, style: style)
        horizontalLine(x: rect.x + 1, y: rect.y, width: rect.width - 2, style: style)
        horizontalLine(x: rect.x + 1, y: rect.maxY - 1, width: rect.width - 2, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            put("│", x: rect.x, y: y, style: style)
            put("│", x: rect.maxX - 1, y: y, style: style)
        }
        if let title, !title.isEmpty, rect.width > 4 {
            write(" \(title) ", x: rect.x + 2, y: rect.y, style: titleStyle ?? style, maxWidth: rect.width - 4)
        }
    }

    /// Show the terminal cursor at a local position, if it is visible.
    public func setCursor(x: Int, y: Int) {
        guard visible(x, y) else { return }
        buffer.cursor = Point(x: origin.x + x, y: origin.y + y)
    }
}
