import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

extension BrowserApplication: ContextEditing, Marking, SavedFiltering {
    package var markedTable: TableView { objectTable }
    package var markedController: ArrayController? { objects }
    package var filteredEntityName: String { place.entityName }
    package var currentFilterText: String { place.filterText }

    /// The object table's own commands (it is rebuilt for each entity).
    func objectCommands() -> [Command] {
        offeredUnlessReadOnly([
            Command("browser.add", title: "Add an object", keys: [.character("a"), .insert], hint: "Add") { [weak self] in
                self?.addObject() ?? .ignored
            },
            Command("browser.delete", title: "Delete the marked or selected objects, after showing what goes with them", keys: [.character("d"), .delete], hint: "Delete") { [weak self] in
                self?.deleteSelectedObjects() ?? .ignored
            },
            Command("browser.addMarked", title: "Add the marked objects to the relationship followed", keys: [.character("A")]) { [weak self] in
                self?.changeMembership(adding: true) ?? .ignored
            },
            Command("browser.removeMarked", title: "Take the marked objects out of the relationship followed", keys: [.character("R")]) { [weak self] in
                self?.changeMembership(adding: false) ?? .ignored
            },
        ]) + [
            Command("browser.filter", title: "Filter: words, or a predicate", keys: [.character("/")], hint: "Filter") { [weak self] in
                self?.beginFilter() ?? .ignored
            },
            Command("browser.addColumn", title: "Add a column by key path (category.name, items.@count)", keys: [.character("C")]) {
                [weak self] in
                self?.beginAddColumn() ?? .ignored
            },
            Command("browser.removeColumn", title: "Take an added column away; hide any other", keys: [.character("-")]) { [weak self] in
                self?.removeOrHideColumn() ?? .ignored
            },
        ]
    }

    /// Read-only, commands that would change the store still answer why not, but are not
    /// offered as hints.
    func offeredUnlessReadOnly(_ commands: [Command]) -> [Command] {
        guard isReadOnly else { return commands }
        return commands.map { command in
            var command = command
            command.isHint = false
            return command
        }
    }

    func installCommands() {
        let global: [Command] = [
            Command("browser.follow", title: "Follow the relationship in the selected cell", keys: [.character("f")], hint: "Follow") { [weak self] in
                guard let self else { return .ignored }
                return self.followSelectedCell(inForm: self.form.hasFocus, byFollowKey: true)
            },
            Command("browser.back", title: "Go back to where the relationship was followed from", keys: [.backspace], hint: "Back") { [weak self] in
                self?.goBack() ?? .ignored
            },
        ] + offeredUnlessReadOnly(editingCommands(prefix: "browser") + interchangeCommands(prefix: "browser")) + inspectionCommands() + [
            Command("browser.clearFilter", title: "Clear the filter", keys: []) { [weak self] in
                self?.applyFilter("") ?? .ignored
            },
            savedFiltersCommand(prefix: "browser"),
        ]
        for command in global { app.keyMap.add(command) }
    }

    func installMenus() {
        installMenus(prefix: "browser", editItems: [
            MenuItem("Add object", command: "browser.add"),
            MenuItem("Delete object", command: "browser.delete"),
        ], middle: [
            Menu("Go", items: [
                MenuItem("Follow relationship", command: "browser.follow"),
                MenuItem("Back", command: "browser.back"),
                MenuItem("Go to…", command: "browser.goTo"),
                MenuItem("Value whole", command: "browser.value"),
                MenuItem("Model of the entity", command: "browser.model"),
                MenuItem("Value counts", command: "browser.counts"),
                MenuItem("Object history", command: "browser.history"),
                MenuItem("History timeline", command: "browser.timeline"),
                MenuItem("Check the store", command: "browser.check"),
                MenuItem("Compare with a store…", command: "browser.compare"),
                MenuItem("Run a fetch request template…", command: "browser.template"),
                MenuItem("Command palette", command: "app.palette"),
            ]),
        ])
    }

    // MARK: Objects

    func addObject() -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        guard let objects else { return .handled }
        if let owner = place.owner, owner.inverse == nil {
            app.showMessage("Add to \(place.entityName) from its own list: this relationship has no inverse to set", isError: true)
            return .redraw
        }
        do {
            // The insert and its owner are one step to undo.
            let added: ManagedObject? = try inOneUndoStep {
                guard let object = try objects.add() else { return nil }
                // In a followed to-many list, the new object belongs to the owner.
                if let owner = place.owner?.object, let inverse = place.owner?.inverse {
                    if object.entity.relationship(named: inverse)?.isToMany == true {
                        try object.setValue(ObjectValue.array((object.objects(inverse) + [owner]).map { .object($0) }), forKey: inverse)
                    } else {
                        try object.setValue(owner, forKey: inverse)
                    }
                }
                return object
            }
            guard let object = added else { return .redraw }
            // Adding clears the filter (so the new object shows); the place says so too.
            if objects.filterPredicate == nil { place.filterText = "" }
            endEvent()
            // Esc on its first edit takes the new object back.
            newObject = (object, context.undoManager?.undoGroupCount ?? 0)
            guard let row = objects.arrangedIndex(of: object) else {
                app.showMessage("Added a \(place.entityName)")
                return .redraw
            }
            objectTable.select(row: row)
            if let first = objectTable.columns.firstIndex(where: { $0.editor != .readOnly }) {
                objectTable.select(column: first)
                return objectTable.beginEditing().union(.redraw)
            }
            return .redraw
        } catch {
            app.showMessage("Cannot add \(place.entityName): \(error)", isError: true)
            return .redraw
        }
    }

    /// `d`: the marked objects, or else the selected one, after showing what the delete
    /// rules will do. Taking an object out of a relationship followed deletes nothing and is
    /// not asked about.
    func deleteSelectedObjects() -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        guard commitEdits() else { return .handled }
        if !marks.isEmpty {
            deleteMarked()
            return .redraw
        }
        guard let objects, objects.canRemove else { return .handled }
        let selected = objects.selectedObjects
        let remove = { [weak self] () throws -> Void in
            guard let self, let objects = self.objects else { return }
            try objects.removeSelection()
        }
        guard objects.removesByDeleting, !selected.isEmpty else {
            do {
                try remove()
                endEvent()
            } catch {
                app.showMessage("Cannot remove: \(error)", isError: true)
            }
            return .redraw
        }
        confirmDelete(selected, what: selected.count == 1 ? "\(selected[0].entity.name) “\(CellValue.displayName(selected[0]))”" : "\(selected.count) objects",
                      delete: remove)
        return .redraw
    }

    /// `A` and `R` in a to-many relationship followed (`Person “Ross” › cars`): the marked
    /// objects of its destination join it, or leave it (deleting nothing), one step to undo;
    /// their inverse follows (a car added to Ross's leaves its former owner's).
    func changeMembership(adding: Bool) -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        guard let owner = place.owner?.object, let key = place.relationship,
              let relationship = owner.entity.relationship(named: key) else {
            app.showMessage("Follow a to-many relationship first (Enter on its cell); then \(adding ? "A adds the marked objects to it" : "R takes them out")",
                            isError: true)
            return .redraw
        }
        let destination = relationship.destinationEntityName
        let marked = marks.objects(in: context).filter { $0.entity.isKind(of: destination) }
        guard commitEdits() else { return .handled }
        guard !marked.isEmpty else {
            app.showMessage("Mark \(destination) objects first (m), in this list or in \(destination)'s", isError: true)
            return .redraw
        }
        let members = owner.objects(key)
        let present = Set(members.map(ObjectIdentifier.init))
        let changed = marked.filter { present.contains(ObjectIdentifier($0)) != adding }
        guard !changed.isEmpty else {
            app.showMessage("Every marked \(destination) is \(adding ? "in" : "out of") \(place.scopeLabel ?? key) already")
            return .redraw
        }
        let leaving = Set(changed.map(ObjectIdentifier.init))
        let after = adding ? members + changed : members.filter { !leaving.contains(ObjectIdentifier($0)) }
        do {
            try inOneUndoStep { try owner.setValue(ObjectValue.array(after.map { .object($0) }), forKey: key) }
        } catch {
            endEvent()
            app.showMessage("Cannot change \(key): \(error)", isError: true)
            return .redraw
        }
        endEvent()
        let what = "\(changed.count) marked \(destination)"
        app.showMessage(adding ? "Added \(what) to \(place.scopeLabel ?? key) — u undoes" : "Took \(what) out of \(place.scopeLabel ?? key) — u undoes")
        return .redraw
    }

    func refuseReadOnly() -> EventResult {
        app.showMessage("The store is open read-only", isError: true)
        return .redraw
    }

    package func save() -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        if saveChanges() { app.showMessage("Saved") }
        return .redraw
    }

    // MARK: Filtering

    func beginFilter() -> EventResult {
        app.beginPrompt("Filter \(place.entityName) (words or predicate): ", text: place.filterText, history: filterHistory.filters,
                        complete: { [weak self] text in self?.completeFilter(text) }) { [weak self] text in
            _ = self?.applyFilter(text)
        }
        return .redraw
    }

    /// Filters the objects shown: plain words match any string attribute, `@name` is the
    /// filter saved so, anything else is a predicate. One that does not parse, or names unknown keys, is shown with its caret
    /// message and the previous filter stays.
    @discardableResult
    package func applyFilter(_ text: String) -> EventResult {
        guard let text = resolvedFilter(text) else { return .redraw }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let entity = context.model.entity(named: place.entityName) else { return .handled }
        arranger.cancel()
        do {
            let predicate = try Self.filterPredicate(for: trimmed, entity: entity)
            filterHistory.record(trimmed)
            // Over a SQLite store, the objects shown are filtered in the background.
            if let objects, commitEdits(), arranger.arrange(objects, filter: predicate, title: "Filtering", done: { [weak self] error in
                guard let self else { return }
                if let error {
                    self.app.alert(title: "Filter not applied", message: FilterText.message(for: error))
                    return
                }
                self.place.filterText = trimmed
                self.updateStatus()
            }) {
                return .redraw
            }
            var here = currentPlace()
            here.filterText = trimmed
            if !show(here) { app.alert(title: "Filter not applied", message: app.statusBar.message ?? "") }
        } catch {
            app.alert(title: "Filter not applied", message: FilterText.message(for: error))
        }
        return .redraw
    }

    /// The predicate a filter text stands for, checked against the entity's keys: words
    /// match any of its string attributes (`CONTAINS[cd]`), other text is a predicate.
    static func filterPredicate(for text: String, entity: Entity) throws -> ObjectPredicate? {
        let strings = entity.attributes.filter { $0.type == .string && !$0.isTransient }.map(\.name)
        return try FilterText.predicate(for: text, entity: entity, searchKeys: strings)
    }
}
