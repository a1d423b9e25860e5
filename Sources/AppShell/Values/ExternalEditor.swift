import Foundation
import TerminalUI

/// Text edited in the user's own editor (`$VISUAL`, else `$EDITOR`, else `vi`), on the
/// terminal the application gives back meanwhile.
///
/// The text goes to a file only the user can read, in a folder of its own that is removed
/// afterwards whatever happens. An editor that cannot start, or exits with a failure (`:cq`
/// in vi), changes nothing.
///
/// ```swift
/// let edited = try ExternalEditor.edit(notes, name: "notes", driver: app.driver)
/// ```
public enum ExternalEditor {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The command that edits a file: `$VISUAL`, else `$EDITOR`, else `vi`. It is run by
    /// the shell, so that `EDITOR="code --wait"` works as it does for git.
    public static func command(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for key in ["VISUAL", "EDITOR"] {
            if let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return "vi"
    }

    /// An editor command by its program's name (`/usr/bin/vim -u NONE` as `vim`), for messages.
    static func shortName(_ command: String) -> String {
        let program = command.split(separator: " ").first.map(String.init) ?? command
        return program.split(separator: "/").last.map(String.init) ?? program
    }

    /// The text as the editor left it; throws when the editor cannot run or fails, and the
    /// caller keeps the text as it was. A final line break the editor added to text that had
    /// none is taken off again.
    ///
    /// - Parameter text: the text the editor opens with.
    /// - Parameter name: the file's name, which the editor shows (an attribute's name).
    /// - Parameter driver: the terminal, given back to the editor while it runs.
    /// - Parameter environment: where the editor's command is looked up (`command(environment:)`),
    ///   and the editor's own environment.
    public static func edit(_ text: String, name: String, driver: TerminalDriver,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termdata-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let safeName = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(60))
        let file = folder.appendingPathComponent((safeName.isEmpty ? "value" : safeName) + ".txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write the text to a file for the editor in \(folder.path)")
        }
        let editor = command(environment: environment)
        var status: Int32 = -1
        var launchError: Error?
        driver.runOutside {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", editor + " \"$1\"", "editor", file.path]
            process.environment = environment
            do {
                try process.run()
                process.waitUntilExit()
                status = process.terminationStatus
            } catch {
                launchError = error
            }
        }
        if let launchError { throw Failure(description: "cannot run the editor “\(Self.shortName(editor))”: \(launchError)") }
        guard status == 0 else {
            throw Failure(description: "the editor “\(Self.shortName(editor))” exited with status \(status)")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Failure(description: "the editor left no file behind")
        }
        guard var edited = String(data: data, encoding: .utf8) else {
            throw Failure(description: "the edited text is not UTF-8")
        }
        if !text.hasSuffix("\n"), edited.hasSuffix("\n") {
            edited.removeLast()
        }
        return edited
    }
}
