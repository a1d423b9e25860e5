import Foundation
import Bindings
import Interchange
import ObjectGraph
import ObjectModel
import Predicates
import TerminalBindings
import TerminalUI

/// Copying what is on screen: `y` the selected cell's value, `Y` the row as JSON, `I` the
/// object's URI — through the terminal (OSC 52, which works over SSH), and through a local
/// clipboard program too where one runs on a display (`wl-copy`, `xclip`, `xsel`).
extension Marking {
    package func copyingCommands(prefix: String) -> [Command] {
        [
            Command("\(prefix).copyValue", title: "Copy the cell's value to the clipboard", keys: [.character("y")]) { [weak self] in
                self?.copySelected(.value) ?? .ignored
            },
            Command("\(prefix).copyRow", title: "Copy the row as JSON", keys: [.character("Y")]) { [weak self] in
                self?.copySelected(.row) ?? .ignored
            },
            Command("\(prefix).copyID", title: "Copy the object's URI (x-coredata://…)", keys: [.character("I")]) { [weak self] in
                self?.copySelected(.uri) ?? .ignored
            },
        ]
    }

    private func copySelected(_ what: CopiedPart) -> EventResult {
        guard let object = markedController?.arrangedObject(at: markedTable.state.selectedRow) else {
            app.showMessage("Select a row first", isError: true)
            return .redraw
        }
        let text: String, said: String
        switch what {
        case .value:
            let column = markedTable.columns[markedTable.state.selectedColumn]
            let value = (try? object.value(forKeyPath: column.id)) ?? .null
            text = Self.clipboardText(value)
            said = column.title
        case .row:
            text = Self.json(of: object)
            said = "the row as JSON"
        case .uri:
            text = object.objectID.uriRepresentation.absoluteString
            said = "the object's URI"
        }
        copy(text)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        app.showMessage("Copied \(said): \(shown.replacingOccurrences(of: "\n", with: " ")) (\(text.count) character\(text.count == 1 ? "" : "s"))")
        return .redraw
    }

    /// Puts `text` on the clipboard: through the terminal, and through a local clipboard
    /// program where one runs on a display.
    package func copy(_ text: String) {
        app.driver.copyToClipboard(text)
        LocalClipboard.copy(text)
    }

    /// A value as text for the clipboard: text as it is, dates in ISO 8601, data in base 64,
    /// nil as nothing, an object by its URI.
    static func clipboardText(_ value: ObjectValue) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        case .date(let d): return d.formatted(.iso8601)
        case .data(let d): return d.base64EncodedString()
        case .object(let o as ManagedObject): return o.objectID.uriRepresentation.absoluteString
        default: return ValueFormat.automatic.string(for: CellValue(value))
        }
    }

    /// The object's attributes and to-one relationships (by URI) as a JSON object, with its
    /// own URI as `@id`, as `termdata export` writes objects.
    static func json(of object: ManagedObject) -> String {
        var fields: [String: JSONValue] = ["@id": .string(object.objectID.uriRepresentation.absoluteString)]
        for attribute in object.entity.attributes where !attribute.isTransient {
            fields[attribute.name] = JSONValue.from((try? object.value(forKey: attribute.name)) ?? .null)
        }
        for relationship in object.entity.relationships where !relationship.isToMany {
            let destination = object.object(relationship.name)
            fields[relationship.name] = destination.map { .string($0.objectID.uriRepresentation.absoluteString) } ?? .null
        }
        return (try? JSONValue.text(.object(fields))) ?? "{}"
    }
}

private enum CopiedPart { case value, row, uri }

/// A clipboard program of the machine the program runs on, used beside OSC 52 where a
/// display runs (a local desktop session); over SSH there is none and OSC 52 alone carries it.
package enum LocalClipboard {
    package static func copy(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let command = program(environment: environment) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        input.fileHandleForWriting.write(Data(text.utf8))
        try? input.fileHandleForWriting.close()
        // Reaped off the key loop: a clipboard program may stay to serve the selection.
        DispatchQueue.global().async { process.waitUntilExit() }
    }

    /// The first clipboard program found on `PATH` for the display that runs, if any.
    package static func program(environment: [String: String]) -> [String]? {
        var candidates: [[String]] = []
        if environment["WAYLAND_DISPLAY"] != nil { candidates.append(["wl-copy"]) }
        if environment["DISPLAY"] != nil {
            candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for candidate in candidates {
            for folder in path {
                let file = folder + "/" + candidate[0]
                if FileManager.default.isExecutableFile(atPath: file) { return [file] + candidate.dropFirst() }
            }
        }
        return nil
    }
}
