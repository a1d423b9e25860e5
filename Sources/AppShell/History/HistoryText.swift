import Foundation
import ObjectGraph
import Predicates
import TerminalBindings
import TerminalUI

/// The history in the applications' words: values as the tables show them, objects by name.
extension ContextEditing {
    /// A value of the history: an object by its name (`Category “Home”`), text in quotes.
    package func historyText(_ value: ObjectValue) -> String {
        switch value {
        case .object(let object):
            guard let id = object as? ManagedObjectID else { return ValueFormat.automatic.string(for: CellValue(value)) }
            let found = context.object(with: id)
            let name = CellValue.displayName(found), key = CellValue.keyName(found)
            return name.hasPrefix(key) ? name : "\(id.entityName) “\(name)”"
        case .array(let members):
            return "[" + members.map(historyText).joined(separator: ", ") + "]"
        case .string(let text):
            return "“\(text)”"
        default:
            return ValueFormat.automatic.string(for: CellValue(value))
        }
    }

    /// An update's keys, each with its value before and after where the history tells them
    /// (`title “Dune” → “Dune Messiah”`, or `title (was “Dune”)`), and the members that
    /// joined (+) or left (−).
    package func historyChangedValues(_ change: HistoryChange, after: [String: ObjectValue] = [:]) -> String {
        (change.updatedProperties ?? []).sorted().map { key in
            let members = (change.joined[key] ?? []).map { "+" + historyText(.object($0)) }
                + (change.left[key] ?? []).map { "−" + historyText(.object($0)) }
            if !members.isEmpty { return "\(key) " + members.joined(separator: " ") }
            guard let before = change.previousValues?[key] else { return key }
            guard let now = after[key] else { return "\(key) (was \(historyText(before)))" }
            return "\(key) \(historyText(before)) → \(historyText(now))"
        }.joined(separator: "; ")
    }

    /// A change in a line: `changed Category “Home”: name (was “House”)`, `inserted …`,
    /// `deleted …: name=“Home”`.
    package func historyLine(_ change: HistoryChange, after: [String: ObjectValue] = [:], naming: Bool = true) -> String {
        let name = naming ? " " + historyText(.object(change.changedObjectID)) : ""
        switch change.changeType {
        case .insert:
            return "inserted" + name
        case .update:
            return "changed\(name)\(naming ? ":" : "") " + historyChangedValues(change, after: after)
        case .delete:
            let kept = (change.previousValues ?? change.tombstone ?? [:]).filter { !$0.value.isNull }
            return "deleted" + name + (kept.isEmpty ? "" : ": " + kept.sorted { $0.key < $1.key }
                .map { "\($0.key)=\(historyText($0.value))" }.joined(separator: ", "))
        }
    }
}
