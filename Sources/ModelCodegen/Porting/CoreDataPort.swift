/// The edits that let Core Data code written for Apple's systems compile on Linux against
/// TermData's `CoreData` module, found in one Swift source file.
///
/// Each edit is mechanical, the same wherever the construct appears, and only in code (never
/// in a comment or a string literal):
///
/// | Apple's code | becomes |
/// |---|---|
/// | `@NSManaged var title: String?` | `@Managed var title: String?` |
/// | `@NSManaged func addToTags(_ value: Tag)` | `@ManagedAccessor func addToTags(_ value: Tag)` |
/// | `@objc(Item)`, `@objc`, `@objcMembers` | nothing (a line left empty goes) |
/// | `#keyPath(Item.title)` | `"title"` |
/// | `#selector(NSString.localizedStandardCompare(_:))` | `Selector("localizedStandardCompare:")` |
/// | `NSSortDescriptor(keyPath: \Item.title, …)` | `NSSortDescriptor(key: "title", …)` |
/// | `NSExpression(forKeyPath: \Item.title)` | `NSExpression(forKeyPath: "title")` |
/// | `import Foundation` beside `import CoreData` | nothing: `CoreData` brings Foundation |
/// | `import Foundation` in a file that makes predicates or sort descriptors | `import CoreData` |
/// | `catch let error as NSError {` | `catch {` and `let error = error as NSError` |
///
/// What the port finds but cannot change by rule (a key path through an optional, a selector
/// without its argument labels, a block predicate) is a `Note` at its line: a person
/// decides. Porting ported source finds nothing more to do.
///
/// ```swift
/// let port = CoreDataPort(source: text)
/// print(port.diff(path: "Item+CoreDataProperties.swift"))
/// try port.ported.write(to: url, atomically: true, encoding: .utf8)
/// ```
public struct CoreDataPort: Sendable {
    /// One change to the source.
    public struct Edit: Equatable, Sendable {
        /// Where the change starts, 1-based.
        public var line: Int
        /// The column where the change starts, in characters, 1-based.
        public var column: Int
        /// What changes, in words: `@NSManaged becomes @Managed`.
        public var summary: String
        /// The UTF-8 offsets the change replaces, and what it puts there.
        var start: Int
        var end: Int
        var replacement: String
    }

    /// Something a port has to change that no rule can: a person decides.
    public struct Note: Equatable, Sendable {
        /// The line of what was found, 1-based.
        public var line: Int
        /// The column of what was found, in characters, 1-based.
        public var column: Int
        /// What was found and what a person has to do about it.
        public var message: String
    }

    /// The source as it was given.
    public let original: String
    /// The source with every edit made.
    public let ported: String
    /// The edits, in source order.
    public let edits: [Edit]
    /// What was found and left alone, in source order.
    public let notes: [Note]

    /// Finds the edits `source` needs and makes them.
    public init(source: String) {
        original = source
        var finder = EditFinder(source: source)
        finder.run()
        edits = finder.edits.sorted { $0.start < $1.start }
        notes = finder.notes.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        ported = Self.apply(edits, to: source)
    }

    /// Whether the source needs no edit.
    public var isUnchanged: Bool { edits.isEmpty }

    private static func apply(_ edits: [Edit], to source: String) -> String {
        let bytes = Array(source.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        for edit in edits where edit.start >= position {
            result += bytes[position..<edit.start]
            result += Array(edit.replacement.utf8)
            position = edit.end
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }
}

/// Walks a file's tokens once, rule by rule, collecting edits and notes.
struct EditFinder {
    let bytes: [UInt8]
    let tokens: [SwiftToken]
    let lines: SourceLines
    var edits: [CoreDataPort.Edit] = []
    var notes: [CoreDataPort.Note] = []

    /// The classes whose Foundation namesakes a file must not reach: Linux's
    /// `NSPredicate(format:)` traps.
    static let coreDataClasses: Set<String> = [
        "NSPredicate", "NSCompoundPredicate", "NSComparisonPredicate", "NSExpression", "NSSortDescriptor",
    ]

    init(source: String) {
        bytes = Array(source.utf8)
        tokens = SwiftTokenizer.tokens(of: source)
        lines = SourceLines(bytes)
    }

    mutating func run() {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch (token.kind, token.text) {
            case (.attribute, "NSManaged"): managed(at: index)
            case (.attribute, "objc"), (.attribute, "objcMembers"): objc(at: index)
            case (.pound, "keyPath"): keyPathExpression(at: index)
            case (.pound, "selector"): selector(at: index)
            case (.identifier, "NSSortDescriptor"), (.identifier, "NSExpression"): swiftKeyPathArgument(at: index)
            case (.identifier, "NSPredicate"): blockPredicate(at: index)
            case (.identifier, "catch"): catchAsNSError(at: index)
            case (.identifier, "as"): conditionalNSErrorCast(at: index)
            default: break
            }
            index += 1
        }
        imports()
    }

    // MARK: Attributes

    /// `@NSManaged` becomes `@Managed` on a property, `@ManagedAccessor` on a function.
    private mutating func managed(at index: Int) {
        let token = tokens[index]
        var next = index + 1
        while next < tokens.count && next < index + 24 {
            let candidate = tokens[next]
            if candidate.kind == .punctuation && candidate.text == "(" {
                next = closingParenthesis(after: next) ?? tokens.count
            } else if candidate.kind == .identifier && candidate.text == "func" {
                edit(token.start, token.end, "@ManagedAccessor", "@NSManaged on a to-many accessor becomes @ManagedAccessor")
                return
            } else if candidate.kind == .identifier && (candidate.text == "var" || candidate.text == "let") {
                break
            } else if candidate.kind != .identifier && candidate.kind != .attribute {
                break
            }
            next += 1
        }
        edit(token.start, token.end, "@Managed", "@NSManaged becomes @Managed")
    }

    /// `@objc`, `@objc(name)` and `@objcMembers` go, with the space after them; a line they
    /// leave empty goes too.
    private mutating func objc(at index: Int) {
        let token = tokens[index]
        var end = token.end
        if index + 1 < tokens.count, tokens[index + 1].text == "(", tokens[index + 1].start == token.end,
           let close = closingParenthesis(after: index + 1) {
            end = tokens[close].end
        }
        let (start, through, _) = removal(token.start, end)
        edit(start, through, "", "@\(token.text)\(end > token.end ? "(…)" : "") goes: Linux has no Objective-C runtime", at: token.start)
    }

    // MARK: Key paths and selectors

    /// `#keyPath(Item.owner.name)` becomes `"owner.name"`.
    private mutating func keyPathExpression(at index: Int) {
        guard let (inner, close) = parenthesised(after: index) else { return }
        var names: [String] = []
        for (position, token) in inner.enumerated() {
            let expectsName = position.isMultiple(of: 2)
            if expectsName && token.kind == .identifier { names.append(token.text) } else if !expectsName && token.text == "." { continue } else {
                note(tokens[index].start, "#keyPath with \(token.text) in it has no rule: write the key as a string")
                return
            }
        }
        guard inner.count % 2 == 1 else { return }
        let key = Self.keyPath(names)
        edit(tokens[index].start, tokens[close].end, "\"\(key)\"", "#keyPath(…) becomes the key \"\(key)\"")
    }

    /// `#selector(NSString.compare(_:options:))` becomes `Selector("compare:options:")`.
    private mutating func selector(at index: Int) {
        guard let (inner, close) = parenthesised(after: index) else { return }
        let at = tokens[index].start
        if let first = inner.first, first.text == "getter" || first.text == "setter" {
            note(at, "#selector(\(first.text): …) names a property's accessor: write its Objective-C name as Selector(\"…\")")
            return
        }
        guard let open = inner.firstIndex(where: { $0.text == "(" }), open > 0, inner[open - 1].kind == .identifier else {
            note(at, "#selector without argument labels has no rule: name them, as in #selector(NSString.compare(_:))")
            return
        }
        let name = inner[open - 1].text
        let labels = inner[(open + 1)...].filter { $0.kind == .identifier }.map(\.text)
        guard labels.first.map({ $0 == "_" }) ?? true else {
            note(at, "#selector(\(name)(\(labels[0]):…)) has a first argument label: write its Objective-C name as Selector(\"…\")")
            return
        }
        let selector = labels.isEmpty ? name : name + ":" + labels.dropFirst().map { $0 + ":" }.joined()
        edit(at, tokens[close].end, "Selector(\"\(selector)\")", "#selector(…) becomes Selector(\"\(selector)\")")
    }

    /// `NSSortDescriptor(keyPath: \Item.title, …)` and `NSExpression(forKeyPath: \Item.title)`
    /// take the key as a string: Linux cannot read a name out of a Swift key path.
    private mutating func swiftKeyPathArgument(at index: Int) {
        guard index + 4 < tokens.count, tokens[index + 1].text == "(" else { return }
        let label = tokens[index + 2], colon = tokens[index + 3], backslash = tokens[index + 4]
        let newLabel: String
        switch (tokens[index].text, label.text) {
        case ("NSSortDescriptor", "keyPath"): newLabel = "key"
        case ("NSExpression", "forKeyPath"): newLabel = "forKeyPath"
        default: return
        }
        guard colon.text == ":", backslash.text == "\\" else { return }
        var names: [String] = []
        var position = index + 5, end = backslash.end
        var rooted = true
        while position < tokens.count, tokens[position].start == end {
            let token = tokens[position]
            if token.text == "." {
                if position == index + 5 { rooted = false }
            } else if token.kind == .identifier {
                names.append(token.text)
            } else if ["?", "!", "["].contains(token.text) {
                note(backslash.start, "a key path with \(token.text) in it has no rule: write the key as a string")
                return
            } else {
                break
            }
            end = token.end
            position += 1
        }
        if rooted && !names.isEmpty { names.removeFirst() }
        guard !names.isEmpty else { return }
        let key = names.joined(separator: ".")
        edit(label.start, end, "\(newLabel): \"\(key)\"", "\(tokens[index].text)(\(label.text): \\…) takes the key \"\(key)\"")
    }

    /// A block predicate has no rule: it cannot become a format.
    private mutating func blockPredicate(at index: Int) {
        guard index + 2 < tokens.count, tokens[index + 1].text == "(", tokens[index + 2].text == "block" else { return }
        note(tokens[index].start, "NSPredicate(block:) is not there on Linux (no store can run a block): write the condition as a format")
    }

    /// `Item.owner.name` names `owner.name`: a leading type (capitalised) or `self` is the root.
    static func keyPath(_ names: [String]) -> String {
        var names = names
        if names.count > 1, let first = names.first, first == "self" || first.first?.isUppercase == true { names.removeFirst() }
        return names.joined(separator: ".")
    }

    // MARK: Imports

    /// `import Foundation` goes from a file that imports CoreData; in a file that does not,
    /// but names the predicate classes, it becomes `import CoreData`.
    private mutating func imports() {
        var foundation: [Int] = []
        var importsCoreData = false
        for index in tokens.indices where tokens[index].kind == .identifier && tokens[index].text == "import" && index + 1 < tokens.count {
            let module = tokens[index + 1]
            guard module.kind == .identifier, index + 2 >= tokens.count || tokens[index + 2].text != "." else { continue }
            if module.text == "CoreData" { importsCoreData = true }
            if module.text == "Foundation" && (index == 0 || tokens[index - 1].kind != .attribute) { foundation.append(index) }
        }
        if importsCoreData {
            for index in foundation {
                let (start, end, wholeLine) = removal(tokens[index].start, tokens[index + 1].end)
                guard wholeLine else { continue }
                edit(start, end, "", "import Foundation goes: import CoreData brings Foundation, and both make NSPredicate ambiguous", at: tokens[index].start)
            }
        } else if let first = foundation.first,
                  tokens.contains(where: { $0.kind == .identifier && Self.coreDataClasses.contains($0.text) }) {
            let module = tokens[first + 1]
            edit(module.start, module.end, "CoreData", "import Foundation becomes import CoreData: Foundation's NSPredicate(format:) traps on Linux")
        }
    }

    // MARK: Positions

    /// The tokens between the parentheses that follow `index`, and the index of the closing one.
    func parenthesised(after index: Int) -> ([SwiftToken], Int)? {
        guard index + 1 < tokens.count, tokens[index + 1].text == "(", let close = closingParenthesis(after: index + 1) else { return nil }
        return (Array(tokens[(index + 2)..<close]), close)
    }

    /// The index of the `)` that closes the `(` at `open`.
    func closingParenthesis(after open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .punctuation {
            if tokens[index].text == "(" { depth += 1 }
            if tokens[index].text == ")" { depth -= 1 }
            if depth == 0 { return index }
        }
        return nil
    }

    /// The range that removing `start..<end` takes: with the blanks after it, and when nothing
    /// else is on its line, the whole line.
    func removal(_ start: Int, _ end: Int) -> (start: Int, end: Int, wholeLine: Bool) {
        var through = end
        while through < bytes.count && (bytes[through] == UInt8(ascii: " ") || bytes[through] == UInt8(ascii: "\t")) { through += 1 }
        let lineStart = lines.start(line(of: start))
        let blankBefore = bytes[lineStart..<start].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if blankBefore && (through == bytes.count || bytes[through] == UInt8(ascii: "\n")) {
            return (lineStart, min(through + 1, bytes.count), true)
        }
        return (start, through, false)
    }

    func line(of offset: Int) -> Int { lines.line(of: offset) }

    func column(of offset: Int) -> Int {
        String(decoding: bytes[lines.start(line(of: offset))..<offset], as: UTF8.self).count + 1
    }

    /// An edit replacing `start..<end`, reported at `at` (where its construct begins).
    mutating func edit(_ start: Int, _ end: Int, _ replacement: String, _ summary: String, at: Int? = nil) {
        let at = at ?? start
        edits.append(CoreDataPort.Edit(line: line(of: at), column: column(of: at), summary: summary, start: start, end: end, replacement: replacement))
    }

    mutating func note(_ offset: Int, _ message: String) {
        notes.append(CoreDataPort.Note(line: line(of: offset), column: column(of: offset), message: message))
    }
}
