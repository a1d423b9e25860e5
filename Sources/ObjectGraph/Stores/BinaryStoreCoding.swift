import Foundation
import ObjectModel
import Predicates

/// The binary store's file format, version 2: little-endian, length-prefixed, with names
/// written once in a string table. `docs/StoreFormats.md` describes it.
enum BinaryStoreCoding {
    static let magic: [UInt8] = Array("TDBS".utf8)
    static let version: UInt16 = 2

    private enum Tag: UInt8 {
        case bool = 1, int, double, decimal, string, date, data, uuid, url
    }

    // MARK: Writing

    static func encode(_ contents: AtomicStoreContents) throws -> Data {
        var strings: [String] = []
        var index: [String: UInt32] = [:]
        func name(_ s: String) -> UInt32 {
            if let i = index[s] { return i }
            let i = UInt32(strings.count)
            strings.append(s)
            index[s] = i
            return i
        }
        var body = Writer()
        body.u32(UInt32(contents.rows.count))
        for row in contents.rows {
            body.u32(name(row.objectID.entityName))
            body.i64(row.objectID.primaryKey ?? 0)
            body.i64(row.version)
            let attributes = row.attributes.filter { !$0.value.isNull }
            body.u32(UInt32(attributes.count))
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                body.u32(name(key))
                try body.value(value)
            }
            body.u32(UInt32(row.toOne.count))
            for (key, id) in row.toOne.sorted(by: { $0.key < $1.key }) {
                body.u32(name(key))
                body.u32(name(id.entityName))
                body.i64(id.primaryKey ?? 0)
            }
            body.u32(UInt32(row.toMany.count))
            for (key, ids) in row.toMany.sorted(by: { $0.key < $1.key }) {
                body.u32(name(key))
                body.u32(UInt32(ids.count))
                for id in ids {
                    body.u32(name(id.entityName))
                    body.i64(id.primaryKey ?? 0)
                }
            }
        }
        let metadata: [String: Any] = [
            "uuid": contents.metadata.uuid,
            "storeType": contents.metadata.storeType.rawValue,
            "nextPrimaryKey": contents.nextPrimaryKey,
            "versionHashes": contents.metadata.versionHashes,
            "versionIdentifiers": contents.metadata.versionIdentifiers,
            "userInfo": contents.metadata.userInfo,
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        var out = Writer()
        out.bytes(magic)
        out.u16(version)
        out.blob(plist)
        out.u32(UInt32(strings.count))
        for s in strings { out.blob(Data(s.utf8)) }
        out.bytes(body.data)
        return Data(out.data)
    }

    // MARK: Reading

    /// Whether data starts like a file of this format.
    static func recognises(_ data: Data) -> Bool { data.prefix(4).elementsEqual(magic) }

    /// The metadata alone, read without a model.
    static func decodeMetadata(_ data: Data, file: String) throws -> StoreMetadata {
        var r = Reader(bytes: [UInt8](data.prefix(1 << 20)), file: file)
        return try header(&r).metadata
    }

    private static func header(_ r: inout Reader) throws -> (metadata: StoreMetadata, nextPrimaryKey: Int64) {
        guard try r.take(4).elementsEqual(magic) else { throw r.fail("not a TermData binary store") }
        let v = try r.u16()
        guard v <= version else { throw r.fail("written by a newer TermData (format version \(v))") }
        let plist = try r.blob()
        guard let meta = try? PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [String: Any],
              let uuid = meta["uuid"] as? String else { throw r.fail("the metadata is damaged") }
        var metadata = StoreMetadata(storeType: .binary, uuid: uuid)
        metadata.versionHashes = meta["versionHashes"] as? [String: Data] ?? [:]
        metadata.versionIdentifiers = meta["versionIdentifiers"] as? [String] ?? []
        metadata.userInfo = meta["userInfo"] as? [String: String] ?? [:]
        return (metadata, (meta["nextPrimaryKey"] as? NSNumber)?.int64Value ?? 1)
    }

    static func decode(_ data: Data, model: ManagedObjectModel, file: String) throws -> AtomicStoreContents {
        var r = Reader(bytes: [UInt8](data), file: file)
        let (metadata, nextPrimaryKey) = try header(&r)
        let uuid = metadata.uuid
        var strings: [String] = []
        // Counts come from the file: room is made for no more than its bytes can hold
        // (a name takes 4 bytes at least, an object 32, a reference 12).
        let stringCount = try r.u32()
        strings.reserveCapacity(min(Int(stringCount), r.remaining / 4))
        for _ in 0..<stringCount { strings.append(String(decoding: try r.blob(), as: UTF8.self)) }
        func string(_ i: UInt32) throws -> String {
            guard Int(i) < strings.count else { throw r.fail("a name index is out of range") }
            return strings[Int(i)]
        }
        func id(_ entity: String, _ key: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: uuid, reference: .permanent(key))
        }
        let count = try r.u32()
        var rows: [StoredRow] = []
        rows.reserveCapacity(min(Int(count), r.remaining / 32))
        for _ in 0..<count {
            let entityName = try string(try r.u32())
            guard let entity = model.entity(named: entityName) else {
                throw r.fail("an object of entity '\(entityName)', which the model lacks")
            }
            var row = StoredRow(objectID: id(entityName, try r.i64()), version: try r.i64())
            for _ in 0..<(try r.u32()) {
                let key = try string(try r.u32())
                let value = try r.value()
                guard let attribute = entity.attribute(named: key), let coerced = attribute.type.coerce(value) else {
                    throw r.fail("\(entityName) \(row.objectID.primaryKey ?? 0): attribute '\(key)' is unknown or holds a \(value.typeName)")
                }
                row.attributes[key] = coerced
            }
            for _ in 0..<(try r.u32()) {
                let key = try string(try r.u32())
                row.toOne[key] = id(try string(try r.u32()), try r.i64())
            }
            for _ in 0..<(try r.u32()) {
                let key = try string(try r.u32())
                let n = try r.u32()
                var ids: [ManagedObjectID] = []
                ids.reserveCapacity(min(Int(n), r.remaining / 12))
                for _ in 0..<n { ids.append(id(try string(try r.u32()), try r.i64())) }
                row.toMany[key] = ids
            }
            rows.append(row)
        }
        return AtomicStoreContents(metadata: metadata, rows: rows, nextPrimaryKey: nextPrimaryKey)
    }

    // MARK: Bytes

    private struct Writer {
        var data: [UInt8] = []

        mutating func bytes(_ b: [UInt8]) { data += b }
        mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data += $0 } }
        mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data += $0 } }
        mutating func i64(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { data += $0 } }
        mutating func f64(_ v: Double) { i64(Int64(bitPattern: v.bitPattern)) }
        mutating func blob(_ d: Data) { u32(UInt32(d.count)); data += d }

        mutating func value(_ value: ObjectValue) throws {
            switch value {
            case .bool(let b): data.append(Tag.bool.rawValue); data.append(b ? 1 : 0)
            case .int(let i): data.append(Tag.int.rawValue); i64(Int64(i))
            case .double(let d): data.append(Tag.double.rawValue); f64(d)
            case .decimal(let d): data.append(Tag.decimal.rawValue); blob(Data("\(d)".utf8))
            case .string(let s): data.append(Tag.string.rawValue); blob(Data(s.utf8))
            case .date(let d): data.append(Tag.date.rawValue); f64(d.timeIntervalSinceReferenceDate)
            case .data(let d): data.append(Tag.data.rawValue); blob(d)
            case .uuid(let u): data.append(Tag.uuid.rawValue); withUnsafeBytes(of: u.uuid) { data += $0 }
            case .url(let u): data.append(Tag.url.rawValue); blob(Data(u.absoluteString.utf8))
            default: throw ObjectGraphError.notStorable(typeName: value.typeName)
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var offset = 0

        func fail(_ reason: String) -> ObjectGraphError {
            .storeFormat(file: file, reason: "\(reason) (at byte \(offset))")
        }

        /// Bytes not yet read.
        var remaining: Int { bytes.count - offset }

        mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, n <= remaining else { throw fail("the file ends early") }
            defer { offset += n }
            return bytes[offset..<offset + n]
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            let slice = try take(MemoryLayout<T>.size)
            var v: T = 0
            for (i, b) in slice.enumerated() { v |= T(b) << (8 * i) }
            return v
        }

        mutating func u16() throws -> UInt16 { try integer(UInt16.self) }
        mutating func u32() throws -> UInt32 { try integer(UInt32.self) }
        mutating func i64() throws -> Int64 { try integer(Int64.self) }
        mutating func f64() throws -> Double { Double(bitPattern: UInt64(bitPattern: try i64())) }
        mutating func blob() throws -> ArraySlice<UInt8> { try take(Int(try u32())) }

        mutating func value() throws -> ObjectValue {
            guard let tag = Tag(rawValue: try take(1).first!) else { throw fail("an unknown value type") }
            switch tag {
            case .bool: return .bool(try take(1).first! != 0)
            case .int: return .int(Int(try i64()))
            case .double: return .double(try f64())
            case .decimal:
                let text = String(decoding: try blob(), as: UTF8.self)
                guard let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw fail("a damaged decimal") }
                return .decimal(d)
            case .string: return .string(String(decoding: try blob(), as: UTF8.self))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: try f64()))
            case .data: return .data(Data(try blob()))
            case .uuid:
                let b = Array(try take(16))
                return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
            case .url:
                guard let u = URL(string: String(decoding: try blob(), as: UTF8.self)) else { throw fail("a damaged URI") }
                return .url(u)
            }
        }
    }
}
