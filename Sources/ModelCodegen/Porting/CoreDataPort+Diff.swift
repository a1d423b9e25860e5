extension CoreDataPort {
    /// The edits as a unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with three lines of
    /// context), which `git apply` and `patch -p1` take; empty when nothing changes.
    public func diff(path: String) -> String {
        guard !edits.isEmpty else { return "" }
        let bytes = Array(original.utf8)
        let lines = SourceLines(bytes)
        let changes = changedLines(lines, bytes)
        var text = "--- a/\(path)\n+++ b/\(path)\n"
        var delta = 0
        var index = 0
        while index < changes.count {
            // A hunk holds the changes whose context touches.
            var last = index
            while last + 1 < changes.count && changes[last + 1].first - changes[last].last <= 7 { last += 1 }
            let first = max(1, changes[index].first - 3)
            let end = min(lines.count, changes[last].last + 3)
            var body: [String] = []
            var oldCount = 0, newCount = 0
            var line = first
            for change in changes[index...last] {
                while line < change.first {
                    body.append(" " + lines.text(line, bytes))
                    oldCount += 1
                    newCount += 1
                    line += 1
                }
                body += change.old.map { "-" + $0 }
                body += change.new.map { "+" + $0 }
                oldCount += change.old.count
                newCount += change.new.count
                line = change.last + 1
            }
            while line <= end {
                body.append(" " + lines.text(line, bytes))
                oldCount += 1
                newCount += 1
                line += 1
            }
            let newFirst = first + delta
            text += "@@ -\(Self.range(first, oldCount)) +\(Self.range(newFirst, newCount)) @@\n"
            text += body.joined()
            delta += newCount - oldCount
            index = last + 1
        }
        return text
    }

    /// `5,3`; an empty range starts at the line before it, as diff writes it.
    private static func range(_ first: Int, _ count: Int) -> String {
        "\(count == 0 ? first - 1 : first),\(count)"
    }

    /// A run of whole lines the edits touch (edits on neighbouring lines make one run, as diff
    /// shows them), before and after, each line with its own line
    /// break (or the marker of a last line without one).
    private struct ChangedLines {
        var first: Int
        var last: Int
        var old: [String]
        var new: [String]
    }

    private func changedLines(_ lines: SourceLines, _ bytes: [UInt8]) -> [ChangedLines] {
        var groups: [(first: Int, last: Int, edits: [Edit])] = []
        for edit in edits {
            let first = lines.line(of: edit.start), last = lines.line(of: max(edit.start, edit.end - 1))
            if let previous = groups.last, first <= previous.last + 1 {
                groups[groups.count - 1].last = max(previous.last, last)
                groups[groups.count - 1].edits.append(edit)
            } else {
                groups.append((first, last, [edit]))
            }
        }
        return groups.map { group in
            let start = lines.start(group.first), end = lines.end(group.last)
            var new: [UInt8] = []
            var position = start
            for edit in group.edits {
                new += bytes[position..<edit.start]
                new += Array(edit.replacement.utf8)
                position = edit.end
            }
            new += bytes[position..<end]
            return ChangedLines(first: group.first, last: group.last,
                                old: SourceLines.split(Array(bytes[start..<end])), new: SourceLines.split(new))
        }
    }
}

/// A file's lines by number, 1-based, over its UTF-8 bytes.
struct SourceLines {
    private var starts: [Int]
    private let total: Int

    init(_ bytes: [UInt8]) {
        starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") && offset + 1 < bytes.count { starts.append(offset + 1) }
        total = bytes.count
        if bytes.isEmpty { starts = [] }
    }

    var count: Int { starts.count }

    func start(_ line: Int) -> Int { starts[line - 1] }

    /// The offset after the line's break.
    func end(_ line: Int) -> Int { line < starts.count ? starts[line] : total }

    func line(of offset: Int) -> Int {
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        return low + 1
    }

    /// The line with its break, as a diff line's text.
    func text(_ line: Int, _ bytes: [UInt8]) -> String {
        Self.split(Array(bytes[start(line)..<end(line)])).first ?? "\n"
    }

    /// Lines, each ending in its break; a last line without one is marked as diff marks it.
    static func split(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(String(decoding: bytes[start...offset], as: UTF8.self))
            start = offset + 1
        }
        if start < bytes.count {
            lines.append(String(decoding: bytes[start...], as: UTF8.self) + "\n\\ No newline at end of file\n")
        }
        return lines
    }
}
