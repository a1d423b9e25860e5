import Foundation
import Testing
import ObjectModel
import Predicates
import TestSupport

/// Compiled models made to hurt the reader: nested without end, referring to themselves,
/// declaring lengths no file holds, or sharing collections to make it build far more than
/// the file holds. Each is refused with the file named, quickly and in little memory.
@Suite("Hostile compiled models")
struct HostileCompiledModelTests {
    /// A binary property list written object by object: `objects` are each object's bytes
    /// (references in them one byte wide), the last one the top.
    static func bplist(_ objects: [[UInt8]], top: Int? = nil) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 1]   // unused, sort version, offset size 4, reference size 1
        bytes += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(top ?? objects.count - 1).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(table).bigEndian, Array.init)
        return Data(bytes)
    }

    /// An array of `count` one-byte references to `element`.
    static func array(of element: Int, count: Int) -> [UInt8] {
        precondition(count < 15)
        return [0xA0 | UInt8(count)] + Array(repeating: UInt8(element), count: count)
    }

    func refusal(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let error = #expect(throws: ModelError.self, sourceLocation: sourceLocation) {
            try CompiledModelFile.model(archive: data, file: "Hostile.mom")
        }
        #expect(error?.file == "Hostile.mom", "the file is named", sourceLocation: sourceLocation)
        return error.map(String.init(describing:)) ?? ""
    }

    @Test("an archive whose objects are lists that each refer to the next fourteen times over (14^40 values from 700 bytes) is read once each, and refused at once")
    func amplification() {
        // A keyed archive whose $objects list unfolds to 14^40 values: object 0 is a string,
        // object i (1...40) fourteen references to object i - 1.
        var objects: [[UInt8]] = [[0x51, 0x61]]
        for i in 1...40 { objects.append(Self.array(of: i - 1, count: 14)) }
        func ascii(_ s: String) -> [UInt8] { [0x50 | UInt8(s.utf8.count)] + Array(s.utf8) }
        let archiver = objects.count, archiverValue = archiver + 1, topKey = archiver + 2, rootKey = archiver + 3,
            root = archiver + 4, topValue = archiver + 5, objectsKey = archiver + 6
        objects += [ascii("$archiver"), [0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8), ascii("$top"), ascii("root"),
                    [0x80, 0x01], [0xD1, UInt8(rootKey), UInt8(root)], ascii("$objects")]
        objects.append([0xD3, UInt8(archiver), UInt8(topKey), UInt8(objectsKey), UInt8(archiverValue), UInt8(topValue), 40])
        let data = Self.bplist(objects)
        #expect(data.count < 1_000)
        let started = Date()
        let message = refusal(data)
        #expect(message.contains("malformed compiled model"), "\(message)")
        #expect(Date().timeIntervalSince(started) < 5, "refused at once, not after unfolding it")
    }

    @Test("lengths no file can hold are refused, not multiplied until they overflow", arguments: [
        [0x6F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] as [UInt8],   // a UTF-16 string of 2^63 - 1 characters
        [0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],              // an array of 2^63 - 1 objects
        [0xDF, 0x13, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],              // a dictionary of 2^62 pairs
        [0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],              // data of 2^63 - 1 bytes
    ])
    func impossibleLengths(_ object: [UInt8]) {
        let message = refusal(Self.bplist([object]))
        #expect(message.contains("runs past the end of the file"), "\(message)")
    }

    @Test("an archived predicate that holds itself (a compound among its own subpredicates) is refused, not followed until the stack runs out")
    func predicateHoldsItself() throws {
        let model = try ManagedObjectModel(
            entities: [EntityDescription(name: "E", attributes: [AttributeDescription(name: "a", type: .integer64)])],
            fetchRequestTemplates: [FetchRequestTemplate(name: "t", entityName: "E", predicateFormat: "a == 1 AND a == 2")])
        guard case .dictionary(var top) = try BinaryPropertyList.read(CompiledModelEncoder.encode(model)),
              case .array(var objects)? = top["$objects"] else {
            Issue.record("the encoder's archive has no $objects")
            return
        }
        // The compound predicate's list of subpredicates: point its first element at the compound itself.
        let compound = try #require(objects.indices.first { objects[$0].dictionary?["NSCompoundPredicateType"] != nil })
        let list = try #require(objects[compound].dictionary?["NSSubpredicates"]?.uid)
        guard case .dictionary(var fields) = objects[list], case .array(var elements)? = fields["NS.objects"] else {
            Issue.record("the subpredicates are not an archived array")
            return
        }
        elements[0] = .uid(compound)
        fields["NS.objects"] = .array(elements)
        objects[list] = .dictionary(fields)
        top["$objects"] = .array(objects)
        let message = refusal(BinaryPropertyListWriter.write(.dictionary(top)))
        #expect(message.contains("nests more than 200 levels deep, or contains itself"), "\(message)")
    }

    @Test("an archive whose entities dictionary gives one name twice is refused, not trapped on (found by the fuzz target)")
    func entityNamedTwice() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Apple"), EntityDescription(name: "Pear")])
        guard case .dictionary(var top) = try BinaryPropertyList.read(CompiledModelEncoder.encode(model)),
              case .array(var objects)? = top["$objects"] else {
            Issue.record("the encoder's archive has no $objects")
            return
        }
        // The dictionary whose keys are the entity names: its second key made the first's.
        let entities = try #require(objects.indices.first { i in
            guard case .array(let keys)? = objects[i].dictionary?["NS.keys"], keys.count == 2 else { return false }
            return keys.compactMap { $0.uid.map { objects[$0].string } ?? nil } == ["Apple", "Pear"]
        })
        guard case .dictionary(var fields) = objects[entities], case .array(var keys)? = fields["NS.keys"] else { return }
        keys[1] = keys[0]
        fields["NS.keys"] = .array(keys)
        objects[entities] = .dictionary(fields)
        top["$objects"] = .array(objects)
        let message = refusal(BinaryPropertyListWriter.write(.dictionary(top)))
        #expect(message.contains("a dictionary has the key 'Apple' twice"), "\(message)")
    }
}
