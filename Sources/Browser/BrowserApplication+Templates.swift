import Foundation
import AppShell
import ObjectGraph
import ObjectModel
import Predicates
import TerminalUI

/// `T`: the model's fetch request templates run in the browser, each `$VARIABLE` asked for
/// in turn; the template's entity is shown, filtered by its predicate, Backspace coming back.
extension BrowserApplication {
    func beginRunTemplate() -> EventResult {
        let templates = context.model.fetchRequestTemplates
        guard !templates.isEmpty else {
            app.showMessage("The model has no fetch request templates", isError: true)
            return .redraw
        }
        if templates.count == 1 { return runTemplate(templates[0], variables: [:]) }
        let names = templates.map(\.name).joined(separator: ", ")
        app.beginPrompt("Run which template (\(names))? ") { [weak self] text in
            guard let self else { return }
            let name = text.trimmingCharacters(in: .whitespaces)
            guard let template = templates.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                self.app.showMessage("The model has no template named \(name): \(names)", isError: true)
                return
            }
            _ = self.runTemplate(template, variables: [:])
        }
        return .redraw
    }

    /// Shows the template's objects; a variable without a value is asked for first.
    @discardableResult
    func runTemplate(_ template: FetchRequestTemplate, variables: [String: ObjectValue]) -> EventResult {
        var there = Place(entityName: template.entityName)
        if let format = template.predicateFormat, !format.isEmpty {
            do {
                there.filterText = try ObjectPredicate(format: format).substitutingVariables(variables).predicateFormat
            } catch let error as PredicateEvaluationError where error.reason == .missingVariable && error.key != nil {
                let name = error.key ?? ""
                app.beginPrompt("\(template.name) where \(format): $\(name) = ") { [weak self] text in
                    var filled = variables
                    filled[name] = Self.variableValue(text)
                    _ = self?.runTemplate(template, variables: filled)
                }
                return .redraw
            } catch {
                app.alert(title: "Template not run", message: "\(template.name): \(error)")
                return .redraw
            }
        }
        let here = currentPlace()
        if show(there) {
            backStack.append(here)
            updateStatus()
            app.showMessage("\(template.name): \(objects?.arrangedCount ?? 0) \(template.entityName)")
        }
        return .redraw
    }

    /// A typed value for a variable: a constant as a predicate writes one (`42`, `"Ada"`,
    /// `YES`, `nil`, `CAST(…)`), anything else as the text it is.
    static func variableValue(_ text: String) -> ObjectValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let expression = try? ObjectExpression(format: trimmed), expression.isConstantValue,
           let value = try? expression.evaluate(with: .null) {
            return value
        }
        return .string(text)
    }
}

extension ObjectExpression {
    /// Whether the expression is a value written out (a number, a quoted string, YES, nil,
    /// a cast of one), not a key path or a function of the evaluated object.
    fileprivate var isConstantValue: Bool {
        switch self {
        case .constant: return true
        case .cast(let value, _): return value.isConstantValue
        case .aggregate(let elements): return elements.allSatisfy(\.isConstantValue)
        default: return false
        }
    }
}
