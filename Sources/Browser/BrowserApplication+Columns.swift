import Foundation
import AppShell
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

/// Columns by key path: `C` adds one to the table (`category.name`, `items.@count`,
/// `items.@max.due`), kept for the entity while the browser runs; `-` on it takes it away.
extension BrowserApplication {
    func beginAddColumn() -> EventResult {
        app.beginPrompt("Add a column to \(place.entityName) (such as category.name, items.@count, items.@max.due): ") { [weak self] text in
            _ = self?.addColumn(text)
        }
        return .redraw
    }

    /// Adds a key path's column to the current entity's table, or says why it cannot be one.
    @discardableResult
    func addColumn(_ text: String) -> EventResult {
        let path = text.trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty, let entity = context.model.entity(named: place.entityName) else { return .handled }
        if objectTable.columns.contains(where: { $0.id == path }) {
            if let index = objectTable.columns.firstIndex(where: { $0.id == path }) { objectTable.select(column: index) }
            app.showMessage("\(path) is shown already")
            return .redraw
        }
        do {
            try KeyHint.checkKeyPath(path, from: entity, in: context.model)
            _ = try Self.columnSortability(path, from: entity, in: context.model)
        } catch {
            app.alert(title: "Column not added", message: "\(error)")
            return .redraw
        }
        addedColumns[entity.name, default: []].append(path)
        var here = currentPlace()
        here.selectedColumn = path
        if show(here) { app.showMessage("Added the column \(path) — - takes it away") }
        return .redraw
    }

    /// `-` on an added column takes it away; on any other column it hides it, as tables do.
    func removeOrHideColumn() -> EventResult {
        guard let key = selectedKey(inForm: false) else { return .handled }
        guard addedColumns[place.entityName]?.contains(key) == true else {
            if !objectTable.hideSelectedColumn() { app.showMessage("The last column cannot be hidden", isError: true) }
            return .redraw
        }
        addedColumns[place.entityName]?.removeAll { $0 == key }
        var here = currentPlace()
        here.selectedColumn = nil
        here.sortDescriptors.removeAll { $0.key == key }
        show(here)
        app.showMessage("Took the column \(key) away")
        return .redraw
    }

    /// The columns added to an entity's table, read-only; sortable (in the store's SQL) when
    /// they follow to-one relationships to an attribute.
    func addedColumns(for entity: Entity) -> [TableColumn] {
        (addedColumns[entity.name] ?? []).map { path in
            let sortable = (try? Self.columnSortability(path, from: entity, in: context.model)) ?? false
            var column = TableColumn(path, title: path, width: max(10, min(path.displayWidth, 24)), isSortable: sortable)
            column.nilText = Self.nilText
            return column
        }
    }

    /// Whether a key path makes a column, and whether it sorts: to-one relationships then an
    /// attribute (sortable), or a to-many relationship then `@count` or `@max`, `@min`,
    /// `@sum`, `@avg` of its destination's attribute (not sortable). Throws what is wrong.
    static func columnSortability(_ path: String, from entity: Entity, in model: ManagedObjectModel) throws -> Bool {
        struct Problem: Error, CustomStringConvertible { var description: String }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        var index = 0
        while index < keys.count {
            let key = keys[index]
            let isLast = index == keys.count - 1
            if current.attribute(named: key) != nil {
                guard isLast else { throw Problem(description: "\(key) is an attribute of \(current.name): nothing follows it in a key path") }
                return true
            }
            guard let relationship = current.relationship(named: key),
                  let destination = model.entity(named: relationship.destinationEntityName) else {
                throw Problem(description: "\(current.name) has no key \(key)")
            }
            if !relationship.isToMany {
                guard !isLast else { throw Problem(description: "\(key) is a relationship: name one of \(destination.name)'s attributes after it (\(path).name)") }
                current = destination
                index += 1
                continue
            }
            let rest = Array(keys[(index + 1)...])
            switch rest.first {
            case "@count" where rest.count == 1:
                return false
            case "@max", "@min", "@sum", "@avg":
                guard rest.count == 2, destination.attribute(named: rest[1]) != nil else {
                    throw Problem(description: "\(rest[0]) needs one of \(destination.name)'s attributes after it (\(key).\(rest[0]).\(destination.attributes.first?.name ?? "value"))")
                }
                return false
            default:
                throw Problem(description: "\(key) holds many \(destination.name) objects: follow it with @count, or @max, @min, @sum or @avg and an attribute")
            }
        }
        throw Problem(description: "an empty key path")
    }
}
