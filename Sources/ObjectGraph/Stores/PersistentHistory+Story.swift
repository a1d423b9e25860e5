import Foundation
import Predicates

extension Sequence where Element == HistoryTransaction {
    /// For one object's changes in these transactions (oldest first), the value each update
    /// left for each key it changed: the value the object's next change of that key replaced,
    /// or, for the last, the value `now` gives (the object's value now, `nil` when gone). By
    /// change ID, then key. Keys whose previous values the store did not keep are left out
    /// where no later change tells them.
    public func valuesAfter(changesOf id: ManagedObjectID, now: (String) -> ObjectValue?) -> [Int64: [String: ObjectValue]] {
        var after: [Int64: [String: ObjectValue]] = [:]
        var next: [String: ObjectValue] = [:]   // going back in time: the value after, by key
        for change in flatMap(\.changes).reversed() where change.changedObjectID == id {
            for key in change.updatedProperties ?? [] {
                if let value = next[key] ?? now(key) { after[change.changeID, default: [:]][key] = value }
            }
            for (key, value) in change.previousValues ?? [:] { next[key] = value }
        }
        return after
    }
}

extension ManagedObject {
    /// A value as the history holds it: a related object by its ID, a to-many relationship
    /// as the IDs of its members (`.array`).
    public func historyValue(forKey key: String) -> ObjectValue? {
        guard let value = try? value(forKey: key) else { return nil }
        func stored(_ value: ObjectValue) -> ObjectValue {
            switch value {
            case .object(let object): return (object as? ManagedObject).map { .object($0.objectID) } ?? value
            case .set(let members), .array(let members): return .array(members.map(stored))
            default: return value
            }
        }
        return stored(value)
    }
}
