import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

extension ToDoApplication: ContextEditing, Marking, SavedFiltering {
    package var filteredEntityName: String { ToDoItem.entityName }
    package var currentFilterText: String { filterText }
    package var markedTable: TableView { table }
    package var markedController: ArrayController? { items }

    func installCommands() {
        table.extraCommands = [
            Command("todo.add", title: "Add an item", keys: [.character("a"), .insert], hint: "Add") { [weak self] in
                self?.addItem() ?? .ignored
            },
            Command("todo.delete", title: "Delete the marked or selected items (undoable)", keys: [.character("d"), .delete], hint: "Delete") { [weak self] in
                self?.deleteSelectedItems() ?? .ignored
            },
            Command("todo.toggleCompleted", title: "Mark the item completed, or not", keys: [.character(" ")], hint: "Done") { [weak self] in
                self?.toggleCompleted() ?? .ignored
            },
            Command("todo.filter", title: "Filter items: words, or a predicate", keys: [.character("/")], hint: "Filter") { [weak self] in
                self?.beginFilter() ?? .ignored
            },
            Command("todo.value", title: "The selected value whole", keys: [.character("v")]) { [weak self] in
                self?.showSelectedValue() ?? .ignored
            },
        ] + markingCommands(prefix: "todo") + copyingCommands(prefix: "todo")
        showMarks(on: table)
        categoryTable.extraCommands = [
            Command("categories.add", title: "Add a category", keys: [.character("a"), .insert], hint: "Add") { [weak self] in
                self?.addCategory() ?? .ignored
            },
            Command("categories.delete", title: "Delete the category", keys: [.character("d"), .delete], hint: "Delete") { [weak self] in
                self?.deleteSelectedCategory() ?? .ignored
            },
            Command("categories.close", title: "Close the category panel", keys: [.escape, .character("c")], hint: "Close") { [weak self] in
                self?.toggleCategoryPanel() ?? .ignored
            },
        ]
        categoryItemsTable.extraCommands = [
            Command("categories.closeFromItems", title: "Close the category panel", keys: [.escape, .character("c")]) { [weak self] in
                self?.toggleCategoryPanel() ?? .ignored
            },
        ]
        let global: [Command] = [
            Command("todo.categories", title: "Show or hide the category panel", keys: [.character("c"), .function(7)], hint: "Categories") { [weak self] in
                self?.toggleCategoryPanel() ?? .ignored
            },
        ] + editingCommands(prefix: "todo") + interchangeCommands(prefix: "todo") + [
            Command("todo.clearFilter", title: "Clear the filter", keys: []) { [weak self] in
                self?.applyFilter("") ?? .ignored
            },
            savedFiltersCommand(prefix: "todo"),
        ]
        for command in global { app.keyMap.add(command) }
    }

    /// `v`: the selected item's value in the selected column, whole, in a pane that scrolls.
    func showSelectedValue() -> EventResult {
        guard let item = items.selectedObjects.first else {
            app.showMessage("Select an item first", isError: true)
            return .redraw
        }
        let key = table.columns[table.state.selectedColumn].id
        let value = (try? item.value(forKey: key)) ?? .null
        let title = "\(table.columns[table.state.selectedColumn].title) of \(item.string(ToDoItem.modelKey(\.name)) ?? "the item")"
        app.show(TextViewer(title: title, lines: ValueInspector.lines(for: value)))
        return .redraw
    }

    func installMenus() {
        installMenus(prefix: "todo", editItems: [
            MenuItem("Add item", command: "todo.add"),
            MenuItem("Delete item", command: "todo.delete"),
            MenuItem("Toggle completed", command: "todo.toggleCompleted"),
        ], middle: [
            Menu("Window", items: [
                MenuItem("Categories", command: "todo.categories"),
                MenuItem("Command palette", command: "app.palette"),
            ]),
        ])
    }

    // MARK: Items

    func addItem() -> EventResult {
        do {
            let filtered = items.filterPredicate != nil
            // The insert and the blank name are one step to undo.
            let added: ManagedObject? = try inOneUndoStep {
                let item = try items.add() as? ToDoItem
                item?.name = ""
                return item
            }
            guard let item = added else { return .redraw }
            endEvent()
            // Esc on its first edit takes the new item back.
            newItem = (item, context.undoManager?.undoGroupCount ?? 0)
            if filtered && items.filterPredicate == nil {
                // Adding clears the filter, so that the new item shows; the status says so.
                filterText = ""
                updateStatus()
                app.showMessage("Filter cleared to show the new item")
            }
            if let row = items.arrangedIndex(of: item) { table.select(row: row) }
            table.select(column: 0)
            return table.beginEditing().union(.redraw)
        } catch {
            app.showMessage("Cannot add an item: \(error)", isError: true)
            return .redraw
        }
    }

    /// `d`: the marked items, or else the selected one, after showing what goes with them.
    func deleteSelectedItems() -> EventResult {
        guard commitEdits() else { return .handled }
        if !marks.isEmpty {
            deleteMarked()
            return .redraw
        }
        let selected = items.selectedObjects
        guard items.canRemove, !selected.isEmpty else { return .handled }
        let what = selected.count == 1 ? "“\(CellValue.displayName(selected[0]))”" : "\(selected.count) items"
        confirmDelete(selected, what: what) { [weak self] in try self?.items.removeSelection() }
        return .redraw
    }

    func toggleCompleted() -> EventResult {
        let selected = items.selectedObjects
        guard !selected.isEmpty else { return .handled }
        let done = !(selected.allSatisfy { ($0 as? ToDoItem)?.completed == true })
        // By key, which throws: an item another program deleted meanwhile is refused in words.
        do {
            for item in selected { try item.setValue(done, forKey: ToDoItem.modelKey(\.completed)) }
        } catch {
            app.showMessage("Cannot change the item: \(error)", isError: true)
        }
        endEvent()
        return .redraw
    }

    package func save() -> EventResult {
        if saveChanges() { app.showMessage("Saved") }
        return .redraw
    }

    // MARK: Filtering

    func beginFilter() -> EventResult {
        app.beginPrompt("Filter (words or predicate): ", text: filterText, history: filterHistory.filters,
                        complete: { [weak self] text in self?.completeFilter(text) }) { [weak self] text in
            _ = self?.applyFilter(text)
        }
        return .redraw
    }

    /// Filters by the typed text: plain words match names (CONTAINS[cd]), `@name` is the
    /// filter saved so; anything else is a predicate. A predicate that does not parse, or names unknown keys, is shown with
    /// its caret message and the previous filter stays.
    ///
    /// Over a SQLite store the filter is read on a background context: keys, help and
    /// resizing go on meanwhile, the status bar shows it running, Esc stops it, a newer
    /// filter replaces it, and the results take the old ones' place when ready.
    @discardableResult
    package func applyFilter(_ text: String) -> EventResult {
        guard let text = resolvedFilter(text) else { return .redraw }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        arranger.cancel()
        do {
            let predicate = try Self.filterPredicate(for: trimmed, entity: context.model.entity(named: ToDoItem.entityName)!)
            filterHistory.record(trimmed)
            let inBackground = arranger.arrange(items, filter: predicate, title: "Filtering") { [weak self] error in
                guard let self else { return }
                if let error {
                    self.app.alert(title: "Filter not applied", message: FilterText.message(for: error))
                    return
                }
                self.filterText = trimmed
                self.updateStatus()
            }
            if inBackground { return .redraw }
            let previous = items.filterPredicate
            items.filterPredicate = predicate
            if let error = items.lastError {
                // The store refused it (no SQL form, a variable without a value, a bad
                // pattern): the rows on screen would belong to the previous filter.
                items.filterPredicate = previous
                throw error
            }
            filterText = trimmed
            updateStatus()
        } catch ObjectGraphError.stopped {
            app.showMessage("Stopped: the filter is as it was")
        } catch {
            app.alert(title: "Filter not applied", message: FilterText.message(for: error))
        }
        return .redraw
    }

    /// The predicate a filter text stands for, checked against the entity's keys: words
    /// match names.
    static func filterPredicate(for text: String, entity: Entity) throws -> ObjectPredicate? {
        try FilterText.predicate(for: text, entity: entity, searchKeys: [ToDoItem.modelKey(\.name)])
    }

    // MARK: Categories

    func toggleCategoryPanel() -> EventResult {
        if app.windows.contains(where: { $0 === categoryPanel }) {
            _ = categoryTable.commitEditing()
            app.close(categoryPanel)
        } else {
            if !categoryItems.isContentPrepared {
                // The panel's item list is read the first time the panel is shown.
                do {
                    try categoryItems.fetch()
                    (categoryItemsTable.dataSource as? ArrayControllerTableSource)?.bind(categoryItemsTable)
                } catch {
                    app.showMessage("Could not read the category's items: \(error)", isError: true)
                }
            }
            app.show(categoryPanel)
        }
        return .redraw
    }

    func addCategory() -> EventResult {
        do {
            // The insert and the placeholder name are one step to undo.
            let added: ManagedObject? = try inOneUndoStep {
                let category = try categories.add() as? ToDoCategory
                category?.name = "New category"
                return category
            }
            guard let category = added else { return .redraw }
            endEvent()
            // Esc on its first edit takes the new category back, as it does a new item.
            newCategory = (category, context.undoManager?.undoGroupCount ?? 0)
            if let row = categories.arrangedIndex(of: category) { categoryTable.select(row: row) }
            // Typing replaces the placeholder name.
            let result = categoryTable.beginEditing()
            categoryTable.state.editor?.clearText()
            return result.union(.redraw)
        } catch {
            app.showMessage("Cannot add a category: \(error)", isError: true)
            return .redraw
        }
    }

    /// How many items a category may hold for its delete to run here, in the context, as a
    /// step to undo. Leaving more without it runs on a background context and is saved at
    /// once: loading and changing them all would hold the keys for seconds.
    static let categoryItemsChangedHere = 1_000

    func deleteSelectedCategory() -> EventResult {
        guard let category = categories.selectedObjects.first else { return .handled }
        // Counted in the store when the items are not loaded: no item is read for the question.
        let count = (try? context.count(ofRelationship: "todos", of: category)) ?? (category as? ToDoCategory)?.todos.count ?? 0
        let remove = { [weak self] in
            guard let self else { return }
            do {
                try self.categories.removeSelection()
                self.endEvent()
            } catch {
                self.app.showMessage("Cannot delete: \(error)", isError: true)
            }
        }
        guard count > 0 else {
            remove()
            return .redraw
        }
        let name = CellValue.displayName(category)
        let items = "\(count.formatted()) item\(count == 1 ? "" : "s")"
        let question = "“\(name)” has \(items). Delete the category and leave \(count == 1 ? "it" : "them") without one?"
        guard count > Self.categoryItemsChangedHere, !hasUnsavedChanges(touching: category) else {
            app.alert(title: "Delete category", message: question, buttons: ["Delete", "Cancel"]) { choice in
                if choice == 0 { remove() }
            }
            return .redraw
        }
        app.alert(title: "Delete category",
                  message: question + " With so many items the delete runs in the background and is saved at once: u cannot take it back.",
                  buttons: ["Delete and save", "Cancel"]) { [weak self] choice in
            if choice == 0 { self?.deleteInBackground(category, name: name, items: items) }
        }
        return .redraw
    }

    /// Whether the category, or an item pointing at it, has changes not saved yet: its
    /// delete then runs here, where those changes are.
    private func hasUnsavedChanges(touching category: ManagedObject) -> Bool {
        if category.hasChanges { return true }
        context.processPendingChanges()
        return context.insertedObjects.union(context.updatedObjects).contains { object in
            (object as? ToDoItem)?.category === category
        }
    }

    /// Deletes a saved category on a background context and saves, its items left without
    /// one by the delete rule there; the status bar shows it running, Esc stops it with
    /// nothing saved, and the context merges the save when it is done.
    private func deleteInBackground(_ category: ManagedObject, name: String, items: String) {
        guard !app.isWorking else {
            app.showMessage("Wait for the work in progress to end (Esc stops it) before deleting", isError: true)
            return
        }
        let id = category.objectID
        saveInBackground("Deleting “\(name)”", contextName: "delete category") { background, progress, stop in
            progress.report("reading its \(items)")
            background.delete(try background.existingObject(with: id))
            background.processPendingChanges()
            try stop.beginSaving()
            progress.reportFinishing("saving \(items) without it")
            try background.save()
        } done: { [weak self] (result: Result<SavedInBackground<Void>, any Error>) in
            guard let self else { return }
            switch result {
            case .success(let deleted):
                self.context.mergeChanges(fromContextDidSave: deleted.save)
                self.endEvent()
                self.app.showMessage("Deleted “\(name)” and saved: its \(items) have no category now")
            case .failure(let error):
                self.app.showMessage("Could not delete “\(name)”, nothing changed: \(error)", isError: true)
            }
        }
    }
}
