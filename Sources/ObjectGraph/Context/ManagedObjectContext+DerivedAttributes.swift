import Foundation
import ObjectModel
import Predicates

extension ManagedObjectContext {
    /// Computes the derived attributes of every inserted and changed object, as a save to the
    /// stores does before it validates: each value is its attribute's `derivationExpression`
    /// evaluated on the object (a key path, a to-many's `@count`, `now()`, `lowercase:(name)`,
    /// …), converted to the attribute's type (`now()` in a Double attribute is seconds since
    /// 2001, as Core Data stores dates). An object whose relationship gained or lost members
    /// is a changed object, so counts follow. Nothing is registered for undo: a derived value
    /// is the save's, not the user's.
    func computeDerivedAttributes() throws {
        guard model.entities.contains(where: { !$0.derivedAttributes.isEmpty }) else { return }
        let objects = Array(inserted) + Array(updated)
        undoManager?.disableUndoRegistration()
        defer { undoManager?.enableUndoRegistration() }
        for object in objects {
            for attribute in object.entity.derivedAttributes {
                let value = Self.derivedValue(try attribute.expression.evaluate(with: .object(object)), as: attribute.type)
                if object[attribute.name] != value { try object.setObjectValue(value, forKey: attribute.name) }
            }
        }
    }

    /// A computed value in the attribute's type where it fits as it is; a date in a number
    /// attribute as its seconds since 2001. A value that fits neither way is refused when it is
    /// set, naming the entity and attribute.
    static func derivedValue(_ value: ObjectValue, as type: AttributeType) -> ObjectValue {
        if type.coerce(value) != nil { return value }
        if case .date(let date) = value, type == .double || type == .float { return .double(date.timeIntervalSinceReferenceDate) }
        return value
    }
}
