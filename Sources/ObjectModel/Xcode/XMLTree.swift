import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element with the line it starts on: what the model reader walks.
struct XMLTree {
    var name: String
    var attributes: [String: String]
    var children: [XMLTree]
    var line: Int
    /// The element's own text (between its children too), entities resolved.
    var text = ""

    func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }
    func child(named name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Parses a whole document; throws `ModelError.malformedXML` with the line of the fault.
    static func parse(_ data: Data, file: String) throws -> XMLTree {
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
