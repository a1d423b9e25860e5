/// The rules for errors: on Linux a Swift error becomes an `NSError` only by `as NSError`.
extension EditFinder {
    /// `catch let error as NSError { … }` becomes `catch { let error = error as NSError … }`:
    /// on Linux a Swift error is an `NSError` only by `as NSError`, never by a pattern's cast
    /// (which the compiler calls always true, and which fails at run time). A `where` clause
    /// reads the name as `(error as NSError)`.
    mutating func catchAsNSError(at index: Int) {
        guard index + 5 < tokens.count, ["let", "var"].contains(tokens[index + 1].text), tokens[index + 2].kind == .identifier,
              tokens[index + 3].text == "as", tokens[index + 4].text == "NSError" else { return }
        let name = tokens[index + 2].text
        var brace = index + 5, depth = 0
        while brace < tokens.count {
            let text = tokens[brace].text
            if text == "(" || text == "[" { depth += 1 }
            if text == ")" || text == "]" { depth -= 1 }
            if text == "{" && depth == 0 { break }
            brace += 1
        }
        guard brace < tokens.count else { return }
        let (_, end, _) = removal(tokens[index + 1].start, tokens[index + 4].end)
        edit(tokens[index + 1].start, end, "", "catch let \(name) as NSError becomes catch and let \(name) = error as NSError: Linux casts no error to NSError in a pattern", at: tokens[index].start)
        for position in (index + 5)..<brace where tokens[position].kind == .identifier && tokens[position].text == name
            && tokens[position - 1].text != "." {
            edit(tokens[position].start, tokens[position].end, "(error as NSError)", "the where clause reads \(name) as (error as NSError)")
        }
        let binding = "let \(name) = error as NSError"
        let after = tokens[brace].end
        var lineEnd = after
        while lineEnd < bytes.count && (bytes[lineEnd] == UInt8(ascii: " ") || bytes[lineEnd] == UInt8(ascii: "\t")) { lineEnd += 1 }
        if lineEnd == bytes.count || bytes[lineEnd] == UInt8(ascii: "\n") {
            edit(after, after, "\n" + bodyIndent(after: lineEnd, catchAt: tokens[index].start) + binding, "the error is bound as NSError first in the body")
        } else {
            edit(after, after, " \(binding);", "the error is bound as NSError first in the body")
        }
    }

    /// `as? NSError` and `as! NSError` have no rule: on Linux they fail for every Swift error.
    mutating func conditionalNSErrorCast(at index: Int) {
        guard index + 2 < tokens.count, ["?", "!"].contains(tokens[index + 1].text), tokens[index + 1].start == tokens[index].end,
              tokens[index + 2].text == "NSError" else { return }
        note(tokens[index].start, "as\(tokens[index + 1].text) NSError fails for every Swift error on Linux (the compiler calls it always true): write `error as NSError`")
    }

    /// The indentation of the line after `offset` when it is deeper than the `catch` line's,
    /// else the `catch` line's and four spaces.
    func bodyIndent(after offset: Int, catchAt: Int) -> String {
        let outer = indentation(ofLineAt: catchAt)
        guard offset < bytes.count else { return outer + "    " }
        let next = indentation(ofLineAt: offset + 1)
        return next.count > outer.count && next.hasPrefix(outer) ? next : outer + "    "
    }

    func indentation(ofLineAt offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        var index = lines.start(line(of: offset))
        var indent = ""
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
            indent.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        return indent
    }
}
