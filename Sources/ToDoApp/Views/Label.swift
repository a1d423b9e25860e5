import TerminalUI

/// One line of centred text: what the detail pane says when nothing is selected.
final class Label: View {
    var text: String

    init(text: String) {
        self.text = text
        super.init()
    }

    override func draw(in canvas: Canvas) {
        canvas.write(text, x: 0, y: 0, width: canvas.size.width, alignment: .center, style: canvas.theme.dimmed)
    }
}
