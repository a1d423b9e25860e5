import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element with the line it starts on: what the model reader walks.
package struct XMLTree {
    package var name: String
    package var attributes: [String: String]
    package var children: [XMLTree]
    package var line: Int
    /// The element's own text (between its children too), entities resolved.
    package var text = ""

    package func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }
    package func child(named name: String) -> XMLTree? { children.first { $0.name == name } }

    /// The document type declaration Core Data's own XML files carry (an XML store, Xcode's
    /// `xcmapping.xml`): it names a DTD by a path on Apple's systems, and is read as a name only.
    package static let coreDataDocumentType = #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#

    /// Parses a whole document; throws `ModelError.malformedXML` with the line of the fault.
    ///
    /// A document type declaration is refused, with its line, unless `coreDataDocumentType` is
    /// set and the document's is exactly Core Data's: that one is blanked out before parsing, so
    /// nothing is fetched or expanded either way.
    package static func parse(_ data: Data, file: String, coreDataDocumentType: Bool = false) throws -> XMLTree {
        var data = data
        if coreDataDocumentType, let range = data.firstRange(of: Data(Self.coreDataDocumentType.utf8)) {
            data.replaceSubrange(range, with: Data(repeating: UInt8(ascii: " "), count: range.count))
        }
        // Say what the file is rather than how the XML parser fails on it (a JSON file is not "empty").
        let leading: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]   // white space and a byte-order mark
        let start = data.drop { leading.contains($0) }
        if start.isEmpty {
            throw ModelError(.malformedXML("the file is empty"), file: file, line: nil)
        }
        if start.first != UInt8(ascii: "<") {
            let shown = String(decoding: start.prefix { $0 != 0x0A && $0 != 0x0D }.prefix(12), as: UTF8.self)
            throw ModelError(.malformedXML("not an XML document (it starts with “\(shown)”)"), file: file, line: 1)
        }
        // Xcode writes UTF-8. Another encoding (UTF-16 without a byte-order mark) would hide
        // a declaration from the byte search below.
        if let nul = data.firstIndex(of: 0) {
            let line = data[data.startIndex..<nul].filter { $0 == 0x0A }.count + 1
            throw ModelError(.malformedXML("a NUL byte: the file is not UTF-8 text"), file: file, line: line)
        }
        // Xcode never writes a DTD; one can declare entities that expand without end, or
        // read other files. Refused before any parsing, with its line.
        if let declaration = ["<!DOCTYPE", "<!ENTITY"].compactMap({ data.firstRange(of: Data($0.utf8)) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let line = data[data.startIndex..<declaration.lowerBound].filter { $0 == 0x0A }.count + 1
            throw ModelError(.malformedXML("a document type declaration (<!DOCTYPE or <!ENTITY), which Xcode's model files never have"),
                             file: file, line: line)
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        let ok = parser.parse()
        if let first = builder.firstError {
            throw ModelError(.malformedXML(Self.describe(first.error)), file: file, line: first.line)
        }
        if !ok || builder.root == nil || parser.parserError != nil {
            let reason = parser.parserError.map { Self.describe($0) } ?? "the document is empty or truncated"
            let line = parser.lineNumber > 0 ? parser.lineNumber : nil
            throw ModelError(.malformedXML(reason), file: file, line: line)
        }
        if !builder.stack.isEmpty {
            throw ModelError(.malformedXML("the document ends inside <\(builder.stack.last!.name)>"),
                             file: file, line: parser.lineNumber)
        }
        return builder.root!
    }

    private static func describe(_ error: Error) -> String {
        let ns = error as NSError
        let known: [Int: String] = [
            4: "the document is empty",
            5: "the document ends before its last element is closed",
            9: "an invalid character",
            23: "an attribute value is not quoted",
            38: "an attribute is not closed",
            41: "an attribute is not closed",
            65: "an attribute lacks a value",
            73: "an element is not closed with '>'",
            76: "a closing tag does not match its opening tag",
            111: "the document ends before its last element is closed",
        ]
        return known[ns.code] ?? "parser error \(ns.code)"
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var root: XMLTree?
        var firstError: (error: Error, line: Int)?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if firstError == nil { firstError = (parseError, parser.lineNumber) }
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            stack.append(XMLTree(name: elementName, attributes: attributeDict, children: [], line: parser.lineNumber))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            guard let done = stack.popLast() else { return }
            if done.name != elementName, firstError == nil {
                firstError = (NSError(domain: "XMLParser", code: 76), parser.lineNumber)
            }
            if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
        }
    }
}
