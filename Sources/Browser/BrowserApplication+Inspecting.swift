import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// Seeing more than a cell holds: a value whole, the model behind the table, and going to a
/// row or an object by its URI.
extension BrowserApplication {
    func inspectionCommands() -> [Command] {
        [
            Command("browser.value", title: "The selected value whole (text, JSON, hex, archive)", keys: [.character("v")],
                    hint: "Value") { [weak self] in
                guard let self else { return .ignored }
                return self.showSelectedValue(inForm: self.form.hasFocus)
            },
        ] + offeredUnlessReadOnly([
            Command("browser.editor", title: "Edit the selected text in $VISUAL or $EDITOR", keys: [.character("E")]) {
                [weak self] in
                guard let self else { return .ignored }
                return self.editSelectedInEditor(inForm: self.form.hasFocus)
            },
            Command("browser.setNil", title: "Set the selected value to nil (where the model allows it)", keys: [.character("x")]) {
                [weak self] in
                guard let self else { return .ignored }
                return self.setSelectedToNil(inForm: self.form.hasFocus)
            },
        ]) + [
            Command("browser.model", title: "The entity's model: attributes, relationships, delete rules, templates",
                    keys: [.character("M")], hint: "Model") { [weak self] in
                self?.showModel() ?? .ignored
            },
            Command("browser.counts", title: "How often each value of the column occurs, with bars; Enter filters to one",
                    keys: [.character("F")], hint: "Counts") { [weak self] in
                self?.showValueCounts() ?? .ignored
            },
            Command("browser.template", title: "Run one of the model's fetch request templates, its $VARIABLES asked for",
                    keys: [.character("T")]) { [weak self] in
                self?.beginRunTemplate() ?? .ignored
            },
            Command("browser.goTo", title: "Go to a row number, a primary key (p42) or an object's URI",
                    keys: [.control("g")]) { [weak self] in
                self?.beginGoTo() ?? .ignored
            },
            Command("browser.explain", title: "How the store runs this list's fetch: SQL, plan, index", keys: [.character("Q")]) {
                [weak self] in
                self?.explainFetch() ?? .ignored
            },
            Command("browser.history", title: "The selected object's history: who changed what, and when", keys: [.character("H")]) {
                [weak self] in
                self?.showObjectHistory() ?? .ignored
            },
            timelineCommand(prefix: "browser"),
            Command("browser.compare", title: "Compare this store with another of its model (a copy, a backup): added, removed, changed",
                    keys: [.character("D")]) { [weak self] in
                self?.beginCompare() ?? .ignored
            },
            Command("browser.check", title: "Check the store against its model: dangling references, nil required values, …",
                    keys: [.character("K")]) { [weak self] in
                self?.checkStore() ?? .ignored
            },
        ]
    }

    // MARK: An object's history

    /// `H`: every transaction of the store's history that touched the selected object — its
    /// insert, each update with the keys it changed, its delete with the values kept — with its
    /// time, author and context, read on a context of its own; then its values now.
    func showObjectHistory() -> EventResult {
        guard let object = objects?.selectedObjects.first else {
            app.showMessage("Select an object first", isError: true)
            return .redraw
        }
        guard context.coordinator.stores.contains(where: { ($0 as? any HistoryTrackingStore) != nil }) else {
            app.showMessage("This store keeps no history (SQLite and PostgreSQL stores do)", isError: true)
            return .redraw
        }
        guard !object.objectID.isTemporaryID else {
            app.showMessage("A new object has no history until it is saved", isError: true)
            return .redraw
        }
        let id = object.objectID, name = "\(object.entity.name) “\(CellValue.displayName(object))”"
        let coordinator = context.coordinator
        let background = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        app.beginWork("Reading the history of \(name)", cancel: { background.interruptWork() }, start: { finish in
            background.perform {
                var request = HistoryRequest()
                request.objectIDs = [id]
                finish(Result { try coordinator.fetchHistory(request) })
            }
        }, done: { [weak self] (result: Result<[HistoryTransaction], any Error>) in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.app.showMessage("Cannot read the history: \(error)", isError: true)
            case .success(let transactions):
                var lines = [TextViewer.Line(name, kind: .heading)]
                if transactions.isEmpty { lines.append(TextViewer.Line("No change to it is in the history (it began after).", kind: .note)) }
                let after = transactions.valuesAfter(changesOf: id) { object.historyValue(forKey: $0) }
                for transaction in transactions {
                    let who = [transaction.author, transaction.contextName.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
                    for change in transaction.changes {
                        let what = self.historyLine(change, after: after[change.changeID] ?? [:], naming: false)
                        let time = ValueFormat.date(showsTime: true).string(for: .date(transaction.timestamp))
                        lines.append(TextViewer.Line("\(transaction.token)  \(time)  \(who.isEmpty ? "—" : who)  \(what)"))
                    }
                }
                let now = object.entity.storedAttributes.compactMap { attribute -> String? in
                    guard let value = try? object.value(forKey: attribute.name), value != .null else { return nil }
                    return "\(attribute.name)=\(ValueFormat.automatic.string(for: CellValue(value)))"
                }
                lines.append(TextViewer.Line(""))
                lines.append(TextViewer.Line("now: " + now.joined(separator: ", "), kind: .note))
                self.app.show(TextViewer(title: "History — \(name)", lines: lines))
            }
        })
        return .redraw
    }

    // MARK: How the fetch runs

    /// `Q`: the list's fetch — its scope, filter and sort — as the store runs it, read on a
    /// context of its own (it runs the statement to time it; Esc stops it), in a pane.
    func explainFetch() -> EventResult {
        guard let objects else { return .handled }
        let request = objects.arrangedObjectsRequest
        let entityName = objects.entityName, unsaved = context.hasChanges
        let background = ManagedObjectContext(coordinator: context.coordinator, concurrencyType: .privateQueue)
        background.name = "explain"
        app.beginWork("Explaining \(entityName)'s fetch", cancel: { background.interruptWork() }, start: { finish in
            background.perform {
                finish(Result { try background.explain(request) })
                background.reset()
            }
        }, done: { [weak self] (result: Result<FetchExplanation, any Error>) in
            guard let self else { return }
            switch result {
            case .success(let explained):
                var lines = [TextViewer.Line("How the list of \(entityName) is fetched", kind: .heading)]
                    + explained.lines.map { TextViewer.Line($0) }
                if unsaved { lines.append(TextViewer.Line("Unsaved changes play no part: this is the store's own fetch.", kind: .note)) }
                self.app.show(TextViewer(title: "Explain — \(entityName)", lines: lines))
            case .failure(let error):
                self.app.showMessage("Cannot explain the fetch: \(error)", isError: true)
            }
        })
        return .redraw
    }

    // MARK: A value whole

    /// The key of the selected cell, or of the focused field in the form.
    func selectedKey(inForm: Bool) -> String? {
        if inForm {
            guard form.fields.indices.contains(form.state.focusedField) else { return nil }
            return form.fields[form.state.focusedField].id
        }
        guard objectTable.columns.indices.contains(objectTable.state.selectedColumn) else { return nil }
        return objectTable.columns[objectTable.state.selectedColumn].id
    }

    /// Opens the selected object's value for the selected cell (or field) in a viewer.
    func showSelectedValue(inForm: Bool) -> EventResult {
        guard let object = objects?.selectedObjects.first, let key = selectedKey(inForm: inForm) else {
            app.showMessage("Select an object first", isError: true)
            return .redraw
        }
        let value: ObjectValue
        do {
            if key.hasSuffix(".@count") {
                let name = String(key.dropLast(".@count".count))
                value = .int(try context.count(ofRelationship: name, of: object))
            } else {
                value = try object.value(forKeyPath: key)
            }
        } catch {
            app.showMessage("Cannot read \(key): \(error)", isError: true)
            return .redraw
        }
        var lines = ValueInspector.lines(for: value)
        if let attribute = object.entity.attribute(named: key) {
            lines.insert(TextViewer.Line(attribute.type.xcodeName + (attribute.isOptional ? ", optional" : ", required"), kind: .note), at: 0)
        }
        let viewer = TextViewer(title: "\(key) of \(CellValue.keyName(object))", lines: lines)
        if !isReadOnly, object.entity.attribute(named: key)?.type == .string {
            viewer.footerHint = "E edit in $EDITOR"
            viewer.onKey = { [weak self] key in
                guard key == .character("E"), let self else { return false }
                _ = self.editSelectedInEditor(inForm: inForm)
                return true
            }
        }
        app.show(viewer)
        return .redraw
    }

    /// Edits the selected text attribute in the user's editor, line breaks and all: one step
    /// to undo. An editor that fails changes nothing.
    func editSelectedInEditor(inForm: Bool) -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        guard commitEdits(), let object = objects?.selectedObjects.first, let key = selectedKey(inForm: inForm) else { return .handled }
        guard let attribute = object.entity.attribute(named: key), attribute.type == .string, !attribute.isTransient else {
            app.showMessage("Only a stored text attribute is edited in the editor", isError: true)
            return .redraw
        }
        let current = (try? object.value(forKey: key))?.stringValue ?? ""
        do {
            let edited = try ExternalEditor.edit(current, name: key, driver: app.driver, environment: environment)
            guard edited != current else {
                app.showMessage("\(key) is unchanged")
                return .redraw
            }
            try ArrayControllerTableSource.set(.text(edited), on: object, key: key)
            endEvent()
            app.showMessage("\(key) changed in the editor — u undoes")
        } catch {
            app.showMessage("\(key) not changed: \(error)", isError: true)
        }
        return .redraw
    }

    /// Sets the selected cell's (or field's) value to nil, which an empty text does not do
    /// for a string: one step to undo. Refused for a required attribute or relationship.
    func setSelectedToNil(inForm: Bool) -> EventResult {
        guard !isReadOnly else { return refuseReadOnly() }
        guard commitEdits(), let object = objects?.selectedObjects.first, let key = selectedKey(inForm: inForm) else { return .handled }
        let isOptional: Bool
        if let attribute = object.entity.attribute(named: key) {
            isOptional = attribute.isOptional
        } else if let relationship = object.entity.relationship(named: key), !relationship.isToMany {
            isOptional = relationship.isOptional
        } else {
            app.showMessage("Only an attribute or a to-one relationship can be set to nil", isError: true)
            return .redraw
        }
        guard isOptional else {
            app.showMessage("\(key) is required: the model does not allow nil", isError: true)
            return .redraw
        }
        guard (try? object.value(forKey: key)) != ObjectValue.null else {
            app.showMessage("\(key) is already nil")
            return .redraw
        }
        do {
            try ArrayControllerTableSource.set(.empty, on: object, key: key)
            endEvent()
            app.showMessage("\(key) set to nil — u undoes")
        } catch {
            app.showMessage("Cannot set \(key) to nil: \(error)", isError: true)
        }
        return .redraw
    }

    // MARK: The model

    /// The current entity as the model declares it, what deleting one of its objects does,
    /// and the model's fetch request templates.
    func showModel() -> EventResult {
        guard let entity = context.model.entity(named: place.entityName) else { return .handled }
        var lines = ModelSummary.lines(for: entity).enumerated().map { i, text in
            TextViewer.Line(text, kind: i == 0 ? .heading : .text)
        }
        if let count = try? context.count(for: FetchRequest(entityName: entity.name)) {
            lines.insert(TextViewer.Line("\(count) in the store, sub-entities included", kind: .note), at: 1)
        }
        let rules = entity.relationships.filter { !$0.isTransient }
        if !rules.isEmpty {
            lines.append(TextViewer.Line(""))
            lines.append(TextViewer.Line("Deleting a \(entity.name)", kind: .heading))
            for relationship in rules { lines.append(TextViewer.Line("  " + Self.deleteRuleText(relationship))) }
        }
        let templates = context.model.fetchRequestTemplates
        if !templates.isEmpty {
            lines.append(TextViewer.Line(""))
            lines.append(TextViewer.Line("Fetch request templates", kind: .heading))
            lines.append(contentsOf: templates.map { TextViewer.Line("  " + ModelSummary.line(for: $0)) })
            lines.append(TextViewer.Line("  T runs one, asking for its $VARIABLES", kind: .note))
        }
        app.show(TextViewer(title: "Model — \(entity.name)", lines: lines))
        return .redraw
    }

    /// What a relationship's delete rule does to what it holds, in words.
    static func deleteRuleText(_ relationship: RelationshipDescription) -> String {
        let what = "its \(relationship.name)"
        switch relationship.deleteRule {
        case .cascade:
            return "\(relationship.name) (Cascade): \(what) \(relationship.isToMany ? "are" : "is") deleted too"
        case .nullify:
            let back = relationship.inverseName.map { ", without it in \(relationship.isToMany ? "their" : "its") \($0)" } ?? " (no inverse to clear)"
            return "\(relationship.name) (Nullify): \(what) \(relationship.isToMany ? "stay" : "stays")\(back)"
        case .deny:
            return "\(relationship.name) (Deny): refused while \(what) \(relationship.isToMany ? "hold any object" : "is set")"
        case .noAction:
            return "\(relationship.name) (No Action): \(what) \(relationship.isToMany ? "are" : "is") left pointing at nothing"
        }
    }

    // MARK: Going to a place

    func beginGoTo() -> EventResult {
        app.beginPrompt("Go to (row number, p42, or x-coredata://…): ") { [weak self] text in
            _ = self?.goTo(text)
        }
        return .redraw
    }

    /// Goes to a row of the table (from 1), an object of the current entity by primary key
    /// (`p42` or `#42`), or any object by the URI Core Data prints for it.
    @discardableResult
    func goTo(_ text: String) -> EventResult {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let objects, !trimmed.isEmpty else { return .handled }
        if let row = Int(trimmed) {
            guard row >= 1, row <= objects.arrangedCount else {
                app.showMessage("No row \(row): the table has \(objects.arrangedCount)", isError: true)
                return .redraw
            }
            select(row: row - 1)
            return .redraw
        }
        let id: ManagedObjectID?
        if trimmed.hasPrefix("x-coredata:") {
            id = URL(string: trimmed).flatMap { context.coordinator.managedObjectID(forURI: $0) }
        } else if let first = trimmed.first, first == "p" || first == "#", let key = Int64(trimmed.dropFirst()) {
            id = objectID(forKey: key)
        } else {
            app.showMessage("Give a row number, a primary key (p42) or an object's URI (x-coredata://…/Entity/p42)", isError: true)
            return .redraw
        }
        guard let id, let object = try? context.existingObject(with: id) else {
            app.showMessage("No such object in this store: \(trimmed)", isError: true)
            return .redraw
        }
        if let row = objects.arrangedIndex(of: object) {
            select(row: row)
            return .redraw
        }
        // Elsewhere: to its entity's objects, unfiltered, with the way back kept.
        let here = currentPlace()
        var there = Place(entityName: object.entity.name)
        there.selected = object
        if show(there) {
            backStack.append(here)
            updateStatus()
        }
        return .redraw
    }

    /// The object of the current entity, or of one of its sub-entities, with a primary key.
    private func objectID(forKey key: Int64) -> ManagedObjectID? {
        let family = entityFamily(place.entityName)
        func id(_ entityName: String) -> ManagedObjectID? {
            context.coordinator.managedObjectID(forURI: URL(string: "x-coredata://\(storeIdentifier)/\(entityName)/p\(key)")!)
        }
        if lazyFetching {
            // In SQLite an entity and its sub-entities share a table and its keys; the row
            // says which entity it is, and a fetch of the key reads it.
            guard let probe = id(place.entityName) else { return nil }
            let predicate = ObjectPredicate.comparison(ComparisonPredicate(.evaluatedObject, .equalTo, .constant(.object(context.object(with: probe)))))
            return try? context.fetchObjectIDs(FetchRequest(entityName: place.entityName, predicate: predicate)).first
        }
        // The other stores know each object by its entity and key.
        return family.lazy.compactMap(id).first { (try? self.context.existingObject(with: $0)) != nil }
    }

    /// An entity and its sub-entities, theirs in turn, in that order.
    private func entityFamily(_ name: String) -> [String] {
        guard let entity = context.model.entity(named: name) else { return [] }
        return [name] + entity.subentityNames.flatMap(entityFamily)
    }

    /// The identifier of the store the browser shows (its first store's).
    private var storeIdentifier: String {
        context.coordinator.stores.first?.identifier ?? ""
    }

    private func select(row: Int) {
        guard let objects else { return }
        objectTable.select(row: row)
        _ = objects.setSelectionIndex(row)
        mainWindow.focus(objectTable)
    }
}
