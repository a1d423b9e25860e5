import Foundation
import TerminalUI

extension Window {
    /// A floating panel of a line over a list — the pending changes, the saved filters, the
    /// value counts — sized to the list's rows as they are now (at least `minimumHeight`, at
    /// most the screen), a quarter of the way down and centred, with the list focused. The
    /// list is drawn first, so that a line counting what the list reads is drawn after it.
    ///
    /// ```swift
    /// app.show(Window.listPanel(title: "Saved filters", header: hint, list: list, width: 80, minimumHeight: 7) { source.numberOfRows })
    /// ```
    package static func listPanel(title: String, header: Label, list: TableView, width: Int, minimumHeight: Int,
                                  chrome: Int = 5, rows: @escaping () -> Int) -> Window {
        let panel = Window(title: title, floating: true)
        panel.addSubview(list)
        panel.addSubview(header)
        panel.placement = { area in
            let width = min(area.width, width), height = min(area.height, max(minimumHeight, rows() + chrome))
            return Rect(x: area.x + max(0, (area.width - width) / 2), y: area.y + max(0, (area.height - height) / 4),
                        width: width, height: height)
        }
        panel.layout = { _, area in
            header.frame = Rect(x: area.x, y: area.y, width: area.width, height: 1)
            list.frame = Rect(x: area.x, y: area.y + 1, width: area.width, height: max(0, area.height - 1))
        }
        panel.focus(list)
        return panel
    }
}
