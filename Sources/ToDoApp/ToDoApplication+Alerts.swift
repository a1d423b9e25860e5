import Foundation
import AppShell
import ObjectGraph
import TerminalBindings
import TerminalUI

extension ToDoApplication {
    /// Looks for items coming due or overdue; when there are some, opens the alert panel
    /// listing them and rings the bell. Each item alerts once (its lastAlertDate is set).
    /// When nothing else was waiting to be saved, the marks are saved at once, so that an
    /// alert alone does not leave the store with unsaved changes.
    @discardableResult
    public func checkAlerts() -> EventResult {
        // A panel opening mid-edit would take the keys being typed (its n and Space act on the
        // due item): the alert waits until no edit or prompt is open.
        if app.prompt != nil || table.state.isEditing || categoryTable.state.isEditing || form.state.isEditing {
            return .ignored
        }
        let due: [ManagedObject]
        let time = now()
        let wasSaved = !context.hasChanges
        do {
            due = try alerts.takeDueItems(in: context, now: time)
        } catch {
            app.showMessage("Could not check for due items: \(error)", isError: true)
            return .redraw
        }
        guard !due.isEmpty else { return .ignored }
        if wasSaved {
            do { try context.save() } catch {
                app.showMessage("Could not save the alert marks (they are saved with your next save): \(error)", isError: true)
            }
        }
        showAlertPanel(with: due, now: time)
        app.driver.bell()
        updateStatus()
        return .redraw
    }

    private func showAlertPanel(with due: [ManagedObject], now: Date) {
        alertItems = (alertItems + due).reduce(into: []) { list, item in if !list.contains(item) { list.append(item) } }
        let overdue = alertItems.contains { (($0 as? ToDoItem)?.dueDate ?? now) < now }
        let source = AlertListSource(items: alertItems)
        let list = TableView(columns: [
            TableColumn(ToDoItem.modelKey(\.name), title: overdue ? "Item" : "Due soon", width: 30, compressedWidth: 16, fillsSpareWidth: true),
            TableColumn(ToDoItem.modelKey(\.dueDate), title: "Due", width: 16, format: .date(showsTime: true)),
            TableColumn(ToDoItem.modelKey(\.completed), title: "Done", width: 5, alignment: .center, format: .checkbox),
            TableColumn(ToDoItem.modelKey(\.doNotAlert), title: "No alert", width: 8, alignment: .center, format: .checkbox),
        ], dataSource: source)
        list.extraCommands = [
            Command("alerts.complete", title: "Mark the item completed", keys: [.character(" "), .character("x")], hint: "Done") { [weak self, weak list] in
                guard let self, let list else { return .ignored }
                self.toggle(ToDoItem.modelKey(\.completed), of: source.item(at: list.state.selectedRow))
                return .redraw
            },
            Command("alerts.doNotAlert", title: "Do not alert for the item again", keys: [.character("n")], hint: "No alert") { [weak self, weak list] in
                guard let self, let list else { return .ignored }
                self.toggle(ToDoItem.modelKey(\.doNotAlert), of: source.item(at: list.state.selectedRow))
                return .redraw
            },
            Command("alerts.close", title: "Close the alerts", keys: [.escape, .enter], hint: "Close") { [weak self] in
                self?.closeAlertPanel() ?? .ignored
            },
        ]
        if let alertPanel { app.close(alertPanel) }
        let panel = Window(title: overdue ? "Overdue or due in the next 5 minutes" : "Due in the next 5 minutes", floating: true)
        panel.addSubview(list)
        let rows = alertItems.count
        panel.placement = { area in
            let width = min(area.width, 66), height = min(area.height, rows + 4)
            return Rect(x: area.x + max(0, (area.width - width) / 2), y: area.y + max(0, (area.height - height) / 3),
                        width: width, height: height)
        }
        panel.layout = { _, area in list.frame = area }
        panel.focus(list)
        alertPanel = panel
        app.show(panel)
    }

    private func toggle(_ key: String, of item: ManagedObject?) {
        guard let item else { return }
        do {
            try item.setValue(!(item.bool(key) ?? false), forKey: key)
        } catch {
            app.showMessage("Cannot change the item: \(error)", isError: true)
        }
        endEvent()
    }

    func closeAlertPanel() -> EventResult {
        if let alertPanel { app.close(alertPanel) }
        alertPanel = nil
        alertItems = []
        return .redraw
    }
}

/// The alert panel's rows: the due items, fixed while the panel is open.
final class AlertListSource: TableDataSource {
    let items: [ManagedObject]

    init(items: [ManagedObject]) { self.items = items }

    var numberOfRows: Int { items.count }

    func item(at row: Int) -> ManagedObject? { row >= 0 && row < items.count ? items[row] : nil }

    func value(row: Int, column: String) -> CellValue {
        guard let item = item(at: row), item.isValid else { return .empty }
        return CellValue((try? item.value(forKey: column)) ?? .null)
    }
}
