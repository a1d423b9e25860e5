import Foundation
import OrderedCollections
import ObjectModel
import Predicates

extension ManagedObjectContext {
    // MARK: Validation

    /// Validates every inserted, updated and deleted object; all failures together.
    public func validateForSave() throws {
        checkQueue()
        var failures: [ValidationFailure] = []
        func collect(_ object: ManagedObject, _ check: () throws -> Void) {
            do { try check() } catch let error as ValidationError {
                failures += error.failures
            } catch {
                failures.append(ValidationFailure(code: .generic, object: object, key: nil, value: .null,
                                                  reason: String(describing: error)))
            }
        }
        for object in inserted { collect(object) { try object.validateForInsert() } }
        for object in updated { collect(object) { try object.validateForUpdate() } }
        for object in deleted { collect(object) { try object.validateForDelete() } }
        failures += try uniquenessFailures()
        if !failures.isEmpty { throw ValidationError(failures: failures) }
    }

    /// Objects whose uniqueness-constrained values another object already has.
    private func uniquenessFailures() throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let constrained = model.entities.filter { !$0.declaration.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return [] }
        let candidates = Array(inserted) + Array(updated)
        for entity in constrained {
            let objects = candidates.filter { $0.entity.isKind(of: entity.name) }
            guard !objects.isEmpty else { continue }
            for constraint in entity.declaration.uniquenessConstraints {
                var seen: [[ObjectValue]: ManagedObject] = [:]
                for object in objects {
                    let key = constraint.map { object[$0] }
                    if let other = seen[key] {
                        failures.append(uniqueFailure(object, constraint, key, other.objectID))
                        continue
                    }
                    seen[key] = object
                    let predicate = ObjectPredicate.and(zip(constraint, key).map { .comparison($0, .equalTo, $1) })
                    let request = FetchRequest(entityName: entity.name, predicate: predicate, resultType: .objectIDs,
                                               includesPendingChanges: false)
                    let clash = try fetchObjectIDs(request).first { id in
                        id != object.objectID && registeredObject(for: id).map { !$0.isDeleted && !$0.hasChanges } ?? true
                    }
                    if let clash { failures.append(uniqueFailure(object, constraint, key, clash)) }
                }
            }
        }
        return failures
    }

    private func uniqueFailure(_ object: ManagedObject, _ constraint: [String], _ values: [ObjectValue],
                               _ other: ManagedObjectID) -> ValidationFailure {
        ValidationFailure(code: .uniquenessConstraint, object: object, key: constraint.joined(separator: ","),
                          value: values.count == 1 ? values[0] : .array(values),
                          reason: "must be unique, but \(other) has the same value")
    }
}
