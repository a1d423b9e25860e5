/// A line between panes: vertical when the view is one cell wide, horizontal otherwise. A
/// horizontal one can carry a label at its right end (`── x-coredata://…/Car/p42 ─`), dimmed,
/// cut from the left when the line is short.
public final class Divider: View {
    /// Text at the right end of a horizontal divider, dimmed; nil or empty for a plain line.
    public var label: String?

    /// Draws the line down or across the view, with the label at the right end of a horizontal one.
    public override func draw(in canvas: Canvas) {
        let style = canvas.theme.border
        if canvas.size.width == 1 {
            for y in 0..<canvas.size.height { canvas.put("│", x: 0, y: y, style: style) }
        } else {
            canvas.horizontalLine(x: 0, y: 0, width: canvas.size.width, style: style)
            if let label, !label.isEmpty, canvas.size.width > 8 {
                let shown = " " + label.truncatedFromStart(toWidth: canvas.size.width - 6) + " "
                canvas.write(shown, x: canvas.size.width - 1 - shown.displayWidth, y: 0, style: canvas.theme.dimmed)
            }
        }
    }
}
