import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ObjectModel
import Predicates

/// A store in one XML file, read whole on open and written whole, atomically, at each
/// save; readable and diffable. The format is in `docs/StoreFormats.md`:
///
/// ```xml
/// <store format="termdata-xml-store" version="1" uuid="…" nextPrimaryKey="3">
///   <object entity="ToDo" pk="1" version="1">
///     <attribute name="name" type="string">Buy milk</attribute>
///     <relationship name="category" to="Category:2"/>
///   </object>
/// </store>
/// ```
public final class XMLStore: AtomicStore {
    static let formatName = "termdata-xml-store"
    static let formatVersion = 1

    /// Opens the XML file at `url`, reading it when it exists; a missing or empty file is a new
    /// store, written at the first save.
    ///
    /// - Throws: `ObjectGraphError.storeFormat` for a file that cannot be read;
    ///   `.incompatibleStore` for one written with another model version (unless
    ///   `options.ignoresVersioning`), `.otherModel` for one of another model altogether.
    public init(model: ManagedObjectModel, url: URL, configurationName: String? = nil,
                options: StoreOptions = StoreOptions()) throws {
        try super.init(type: .xml, model: model, url: url, configurationName: configurationName, options: options)
    }

    /// Reads and parses the XML file at `url`.
    public override func readContents(at url: URL) throws -> AtomicStoreContents {
        let data = try AtomicFile.read(url)
        let reader = XMLStoreReader(model: model, file: url.path)
        return try reader.read(data)
    }

    /// Writes the contents as XML text, in UTF-8.
    public override func encode(_ contents: AtomicStoreContents) throws -> Data {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<store format=\"\(Self.formatName)\" version=\"\(Self.formatVersion)\" uuid=\"\(XMLText.escaped(contents.metadata.uuid))\""
        out += " nextPrimaryKey=\"\(contents.nextPrimaryKey)\">\n"
        out += "  <metadata>\n"
        for entity in contents.metadata.versionHashes.keys.sorted() {
            out += "    <versionHash entity=\"\(XMLText.escaped(entity))\">\(contents.metadata.versionHashes[entity]!.base64EncodedString())</versionHash>\n"
        }
        for identifier in contents.metadata.versionIdentifiers {
            out += "    <versionIdentifier>\(XMLText.escaped(identifier))</versionIdentifier>\n"
        }
        for key in contents.metadata.userInfo.keys.sorted() {
            out += "    <userInfo key=\"\(XMLText.escaped(key))\">\(XMLText.escaped(contents.metadata.userInfo[key]!))</userInfo>\n"
        }
        out += "  </metadata>\n"
        for row in contents.rows {
            out += "  <object entity=\"\(XMLText.escaped(row.objectID.entityName))\" pk=\"\(row.objectID.primaryKey ?? 0)\" version=\"\(row.version)\">\n"
            for name in row.attributes.keys.sorted() {
                guard let (kind, text) = StoredValueCoding.text(of: row.attributes[name]!) else { continue }
                if kind == "string" && !Self.isXMLSafe(text) {
                    out += "    <attribute name=\"\(XMLText.escaped(name))\" type=\"string\" encoding=\"base64\">\(Data(text.utf8).base64EncodedString())</attribute>\n"
                } else {
                    out += "    <attribute name=\"\(XMLText.escaped(name))\" type=\"\(kind)\">\(XMLText.escaped(text))</attribute>\n"
                }
            }
            for name in row.toOne.keys.sorted() {
                out += "    <relationship name=\"\(XMLText.escaped(name))\" to=\"\(XMLText.escaped(StoredValueCoding.reference(row.toOne[name]!)))\"/>\n"
            }
            for name in row.toMany.keys.sorted() {
                let targets = row.toMany[name]!.map(StoredValueCoding.reference).joined(separator: " ")
                out += "    <relationship name=\"\(XMLText.escaped(name))\" toMany=\"YES\" to=\"\(XMLText.escaped(targets))\"/>\n"
            }
            out += "  </object>\n"
        }
        out += "</store>\n"
        return Data(out.utf8)
    }

    /// Whether every character may appear in XML 1.0 text (and survives a round trip).
    static func isXMLSafe(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { c in
            c == "\t" || c == "\n" || (c.value >= 0x20 && c.value != 0xFFFE && c.value != 0xFFFF)
        } && !s.contains("\r")
    }
}

/// Reads the XML store format with Foundation's streaming parser.
final class XMLStoreReader: NSObject, XMLParserDelegate {
    let model: ManagedObjectModel
    let file: String
    private var metadata = StoreMetadata(storeType: .xml, uuid: "")
    private var rows: [StoredRow] = []
    private var nextPrimaryKey: Int64 = 1
    private var row: StoredRow?
    private var text = ""
    private var element: (name: String, attributes: [String: String])?
    private var failure: String?
    private var sawRoot = false
    /// Whether `</store>` was read: the document is whole. Foundation's parser on Linux can
    /// report an internal error after the end of a large document; it is ignored then.
    private var closedRoot = false

    init(model: ManagedObjectModel, file: String) {
        self.model = model
        self.file = file
    }

    func read(_ data: Data) throws -> AtomicStoreContents {
        let parser = XMLParser(data: data)
        parser.delegate = self
        let ok = parser.parse()
        if let failure { throw ObjectGraphError.storeFormat(file: file, reason: "line \(parser.lineNumber): \(failure)") }
        if (!ok || parser.parserError != nil || !sawRoot) && !closedRoot {
            throw ObjectGraphError.storeFormat(file: file, reason: "line \(parser.lineNumber): malformed XML")
        }
        return AtomicStoreContents(metadata: metadata, rows: rows, nextPrimaryKey: nextPrimaryKey)
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        if failure == nil { failure = reason }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        switch name {
        case "store":
            guard attributes["format"] == XMLStore.formatName else { return fail(parser, "not a TermData XML store") }
            guard let v = Int(attributes["version"] ?? ""), v <= XMLStore.formatVersion else {
                return fail(parser, "written by a newer TermData (format version \(attributes["version"] ?? "?"))")
            }
            guard let uuid = attributes["uuid"] else { return fail(parser, "no store UUID") }
            sawRoot = true
            metadata.uuid = uuid
            nextPrimaryKey = Int64(attributes["nextPrimaryKey"] ?? "") ?? 1
        case "object":
            guard let entity = attributes["entity"], model.entity(named: entity) != nil,
                  let key = Int64(attributes["pk"] ?? "") else {
                return fail(parser, "an object has no known entity or key")
            }
            row = StoredRow(objectID: ManagedObjectID(entityName: entity, storeIdentifier: metadata.uuid, reference: .permanent(key)),
                            version: Int64(attributes["version"] ?? "") ?? 1)
        case "relationship":
            guard var current = row, let relationshipName = attributes["name"] else { return fail(parser, "a relationship outside an object") }
            let targets = (attributes["to"] ?? "").split(separator: " ")
                .compactMap { StoredValueCoding.objectID(fromReference: $0, store: metadata.uuid) }
            if attributes["toMany"] == "YES" {
                current.toMany[relationshipName] = targets
            } else if let target = targets.first {
                current.toOne[relationshipName] = target
            }
            row = current
        default:
            element = (name, attributes)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "store":
            closedRoot = true
        case "object":
            if let row { rows.append(row) }
            row = nil
        case "attribute":
            guard var current = row, let attributes = element?.attributes, let attributeName = attributes["name"] else {
                return fail(parser, "an attribute outside an object")
            }
            let entityName = current.objectID.entityName
            guard let attribute = model.entity(named: entityName)?.attribute(named: attributeName) else {
                return fail(parser, "\(entityName) has no attribute '\(attributeName)'")
            }
            var content = text
            if attributes["encoding"] == "base64" {
                guard let data = Data(base64Encoded: text) else { return fail(parser, "bad base64 in \(entityName).\(attributeName)") }
                content = String(decoding: data, as: UTF8.self)
            }
            guard let value = StoredValueCoding.value(fromText: content, kind: attributes["type"] ?? "string", type: attribute.type) else {
                return fail(parser, "\(entityName).\(attributeName): '\(content)' does not fit type \(attribute.type.xcodeName)")
            }
            current.attributes[attributeName] = value
            row = current
        case "versionHash":
            if let entity = element?.attributes["entity"], let data = Data(base64Encoded: text) { metadata.versionHashes[entity] = data }
        case "versionIdentifier":
            metadata.versionIdentifiers.append(text)
        case "userInfo":
            if let key = element?.attributes["key"] { metadata.userInfo[key] = text }
        default:
            break
        }
        element = nil
        text = ""
    }
}
