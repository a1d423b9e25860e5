import Foundation
import AppShell
import Bindings
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// Following relationships from the selected object, and the way back.
extension BrowserApplication {
    /// The relationship of the selected cell (or form field), if it is one.
    private func selectedRelationship(inForm: Bool) -> RelationshipDescription? {
        guard let entity = context.model.entity(named: place.entityName) else { return nil }
        let key: String
        if inForm {
            guard form.fields.indices.contains(form.state.focusedField) else { return nil }
            key = form.fields[form.state.focusedField].id
        } else {
            guard objectTable.columns.indices.contains(objectTable.state.selectedColumn) else { return nil }
            key = objectTable.columns[objectTable.state.selectedColumn].id
        }
        let name = key.hasSuffix(".@count") ? String(key.dropLast(".@count".count)) : key
        return entity.relationship(named: name)
    }

    /// Follows the relationship in the selected cell or field from the selected object:
    /// to its destination (to-one) or to the objects it holds (to-many).
    @discardableResult
    func followSelectedCell(inForm: Bool = false, byFollowKey: Bool = false) -> EventResult {
        guard let relationship = selectedRelationship(inForm: inForm) else {
            if byFollowKey {
                app.showMessage("Only a relationship can be followed; this is an attribute", isError: true)
            } else if !inForm {
                let column = objectTable.columns.indices.contains(objectTable.state.selectedColumn)
                    ? objectTable.columns[objectTable.state.selectedColumn].title : "This column"
                app.showMessage("\(column) cannot be edited", isError: true)
            }
            return .redraw
        }
        guard let object = objects?.selectedObjects.first else { return .handled }
        return follow(relationship, from: object)
    }

    /// The most members of a relationship without an inverse that are shown (as one
    /// `SELF IN` list, bound as that many SQL arguments).
    static let memberListLimit = 30_000

    func follow(_ relationship: RelationshipDescription, from object: ManagedObject) -> EventResult {
        let here = currentPlace()
        let name = CellValue.displayName(object)
        let next: Place
        if relationship.isToMany {
            let scope: ObjectPredicate
            var inverseName: String?
            if let inverse = relationship.inverseName,
               let destination = context.model.entity(named: relationship.destinationEntityName),
               let inverseRelationship = destination.relationship(named: inverse) {
                scope = inverseRelationship.isToMany
                    ? .comparison(ComparisonPredicate(.keyPath(inverse), .equalTo, .constant(.object(object)), modifier: .any))
                    : .comparison(ComparisonPredicate(.keyPath(inverse), .equalTo, .constant(.object(object))))
                inverseName = inverse
            } else {
                let members = object.objects(relationship.name)
                guard members.count <= Self.memberListLimit else {
                    app.showMessage("\(name) has \(members.count) \(relationship.name), too many to list without an inverse relationship",
                                    isError: true)
                    return .redraw
                }
                scope = .comparison(ComparisonPredicate(.evaluatedObject, .in, .constant(.array(members.map { .object($0) }))))
            }
            next = Place(entityName: relationship.destinationEntityName, scope: scope,
                         scopeLabel: "\(object.entity.name) “\(name)” › \(relationship.name)", owner: (object, inverseName),
                         relationship: relationship.name)
        } else {
            guard let destination = object.object(relationship.name) else {
                app.showMessage("\(name) has no \(relationship.name)")
                return .redraw
            }
            switch CellValue.Reach(destination) {
            case .present: break
            case .deleted:
                app.showMessage("\(relationship.name) of \(name) leads to \(CellValue.displayName(destination))", isError: true)
                return .redraw
            case .missing:
                app.showMessage("\(relationship.name) of \(name) leads to \(CellValue.keyName(destination)), which is no longer in the store",
                                isError: true)
                return .redraw
            }
            next = Place(entityName: destination.entity.name, selected: destination)
        }
        guard show(next) else { return .redraw }
        backStack.append(here)
        updateStatus()
        if relationship.isToMany, objects?.arrangedCount == 0 {
            app.showMessage("\(name) has no \(relationship.name)")
        } else if !relationship.isToMany {
            app.showMessage("\(relationship.name) of \(name) — Backspace goes back")
        }
        return .redraw
    }

    /// Returns to the place left by the last relationship followed.
    func goBack() -> EventResult {
        guard let previous = backStack.last else {
            app.showMessage("Nothing to go back to")
            return .redraw
        }
        if show(previous) {
            backStack.removeLast()
            updateStatus()
        }
        return .redraw
    }

    /// The current place with what the user did here: sort, selection.
    func currentPlace() -> Place {
        var here = place
        here.sortDescriptors = objects?.sortDescriptors ?? here.sortDescriptors
        here.selected = objects?.selectedObjects.first
        if objectTable.columns.indices.contains(objectTable.state.selectedColumn) {
            here.selectedColumn = objectTable.columns[objectTable.state.selectedColumn].id
        }
        if form.hasFocus, form.fields.indices.contains(form.state.focusedField) {
            here.formField = form.fields[form.state.focusedField].id
        }
        return here
    }
}
