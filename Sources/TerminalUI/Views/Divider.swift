/// A line between panes: vertical when the view is one cell wide, horizontal otherwise.
public final class Divider: View {
    public override func draw(in canvas: Canvas) {
        let style = canvas.theme.border
        if canvas.size.width == 1 {
            for y in 0..<canvas.size.height { canvas.put("│", x: 0, y: y, style: style) }
        } else {
            canvas.horizontalLine(x: 0, y: 0, width: canvas.size.width, style: style)
        }
    }
}
