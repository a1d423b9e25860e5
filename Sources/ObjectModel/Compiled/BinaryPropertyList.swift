import Foundation

/// A value of a property list, as a binary property list (`bplist00`) holds it.
///
/// Unlike Foundation's reader it keeps what a keyed archive needs and Foundation hides:
/// archive references (`uid`) and the difference between a boolean and the numbers 0 and 1.
public enum PropertyListValue: Sendable, Hashable {
    /// The format's null object.
    case null
    /// A boolean, kept apart from the numbers 0 and 1.
    case bool(Bool)
    /// An integer: an eight-byte one signed, a shorter one unsigned, a sixteen-byte one only when
    /// it fits in 64 bits.
    case int(Int)
    /// A real number, a four-byte one widened to `Double`.
    case real(Double)
    /// A date, stored as seconds since the first instant of 2001 (UTC).
    case date(Date)
    /// Bytes, as the file holds them.
    case data(Data)
    /// A string, stored in the file as ASCII or UTF-16.
    case string(String)
    /// A reference to an object of a keyed archive: its index in `$objects`.
    case uid(Int)
    /// An array's values, in order.
    case array([PropertyListValue])
    /// A set's members, in the order the file lists them.
    case set([PropertyListValue])
    /// A dictionary by key; a file with a key that is not a string is refused.
    case dictionary([String: PropertyListValue])

    /// The string this value holds; nil for any other kind of value.
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The archive reference this value holds (an index in `$objects`); nil for any other kind.
    public var uid: Int? { if case .uid(let u) = self { return u } else { return nil } }
    /// The dictionary this value holds; nil for any other kind of value.
    public var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let d) = self { return d } else { return nil }
    }
    /// The elements of an array or a set.
    public var elements: [PropertyListValue]? {
        switch self {
        case .array(let a), .set(let a): return a
        default: return nil
        }
    }
    /// The value as an integer: an integer, a boolean as 0 or 1, or a whole real number under
    /// 9e18 in size; nil for anything else.
    public var int: Int? {
        switch self {
        case .int(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .real(let d) where d.rounded() == d && abs(d) < 9e18: return Int(d)
        default: return nil
        }
    }
    /// The value as a boolean: a boolean, or an integer as whether it is not zero; nil for
    /// anything else.
    public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i != 0
        default: return nil
        }
    }
}

/// Reads a binary property list: the `bplist00` format Apple's tools write for compiled
/// models, store metadata and keyed archives.
///
/// ```swift
/// let value = try BinaryPropertyList.read(data)
/// ```
///
/// Every offset and reference is checked against the file, so a damaged or hostile file is
/// refused with the byte where it goes wrong rather than read out of bounds.
public struct BinaryPropertyList {
    /// Why a file is not a readable binary property list.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, in words, such as "object 3 contains itself".
        public var message: String
        /// The byte of the file where the problem is, when there is one.
        public var offset: Int?
        /// The problem as one line, after the byte where it is when there is one.
        public var description: String { offset.map { "byte \($0): \(message)" } ?? message }
    }

    /// Whether the bytes start as a binary property list does.
    public static func looksLikeOne(_ data: Data) -> Bool {
        data.starts(with: Array("bplist0".utf8))
    }

    /// The file's top object.
    public static func read(_ data: Data) throws -> PropertyListValue {
        var reader = BinaryPropertyList(Array(data))
        return try reader.readTop()
    }

    private let bytes: [UInt8]
    private var offsetSize = 0
    private var referenceSize = 0
    private var offsets: [Int] = []
    /// The deepest nesting read; archives are a few levels deep, so a file nested further
    /// is damaged (or built to exhaust the stack).
    private static let maximumDepth = 512
    /// Each object as read: a string, data or collection referred to again is the same value,
    /// its storage shared, not another copy of it. A file may refer to one collection from
    /// many places (a list of a thousand references to a list of a thousand references …):
    /// read once each, its objects take memory in proportion to the file, not to what the
    /// references would unfold to.
    private var read: [Int: PropertyListValue] = [:]

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func readTop() throws -> PropertyListValue {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw Problem(message: bytes.starts(with: Array("bplist".utf8))
                ? "the file is too short to be a binary property list"
                : "not a binary property list (it does not start with bplist00)")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = try integer(at: trailer + 8, size: 8)
        let top = try integer(at: trailer + 16, size: 8)
        let table = try integer(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Problem(message: "the trailer gives offsets of \(offsetSize) and references of \(referenceSize) bytes", offset: trailer)
        }
        guard count > 0, count <= bytes.count, table >= 8, table <= trailer,
              count * offsetSize <= trailer - table, top < count else {
            throw Problem(message: "the trailer's object count, top object or offset table lies outside the file", offset: trailer)
        }
        offsets.reserveCapacity(count)
        for i in 0..<count {
            let offset = try integer(at: table + i * offsetSize, size: offsetSize)
            guard offset >= 8, offset < table else {
                throw Problem(message: "object \(i) starts outside the file's objects", offset: table + i * offsetSize)
            }
            offsets.append(offset)
        }
        var path: [Int] = []
        return try object(top, path: &path)
    }

    private func integer(at position: Int, size: Int) throws -> Int {
        guard position >= 0, size >= 1, position + size <= bytes.count else {
            throw Problem(message: "a \(size)-byte number runs past the end of the file", offset: position)
        }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[position + i]) }
        guard size < 8 || value <= UInt64(Int.max) else {
            throw Problem(message: "a number is too large", offset: position)
        }
        return Int(value)
    }

    /// The length that follows a marker whose low half is 0xF: an integer object.
    private func length(marker: UInt8, at position: Int) throws -> (count: Int, start: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, position + 1) }
        guard position + 1 < bytes.count, bytes[position + 1] & 0xF0 == 0x10 else {
            throw Problem(message: "a length is not written as an integer", offset: position + 1)
        }
        let size = 1 << Int(bytes[position + 1] & 0x0F)
        guard size <= 8 else { throw Problem(message: "a length of \(size) bytes", offset: position + 1) }
        return (try integer(at: position + 2, size: size), position + 2 + size)
    }

    private func span(_ start: Int, _ count: Int, of what: String) throws -> Range<Int> {
        guard count >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw Problem(message: "\(what) runs past the end of the file", offset: start)
        }
        return start..<(start + count)
    }

    private mutating func object(_ index: Int, path: inout [Int]) throws -> PropertyListValue {
        guard index >= 0, index < offsets.count else {
            throw Problem(message: "a reference to object \(index), of \(offsets.count)", offset: nil)
        }
        guard path.count < Self.maximumDepth else {
            throw Problem(message: "objects nest more than \(Self.maximumDepth) deep", offset: offsets[index])
        }
        guard !path.contains(index) else {
            throw Problem(message: "object \(index) contains itself", offset: offsets[index])
        }
        if let value = read[index] { return value }
        let value = try decode(index, path: &path)
        read[index] = value
        return value
    }

    /// Reads object `index` itself (`object` checks the reference and keeps what is read).
    private mutating func decode(_ index: Int, path: inout [Int]) throws -> PropertyListValue {
        let position = offsets[index]
        let marker = bytes[position]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Problem(message: "unknown marker 0x\(String(marker, radix: 16))", offset: position)
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            if size == 16 {
                // Sixteen-byte integers hold values beyond 64 bits only when the high half is not zero.
                let high = try integer(at: position + 1, size: 8)
                guard high == 0 else { throw Problem(message: "an integer beyond 64 bits", offset: position) }
                return .int(try integer(at: position + 9, size: 8))
            }
            guard size <= 8 else { throw Problem(message: "an integer of \(size) bytes", offset: position) }
            let range = try span(position + 1, size, of: "an integer")
            var value: UInt64 = 0
            for b in bytes[range] { value = value << 8 | UInt64(b) }
            // Eight-byte integers are signed; shorter ones are not.
            return .int(size == 8 ? Int(Int64(bitPattern: value)) : Int(value))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            let range = try span(position + 1, size, of: "a real number")
            var value: UInt64 = 0
            for b in bytes[range] { value = value << 8 | UInt64(b) }
            switch size {
            case 4: return .real(Double(Float(bitPattern: UInt32(value))))
            case 8: return .real(Double(bitPattern: value))
            default: throw Problem(message: "a real number of \(size) bytes", offset: position)
            }
        case 0x3:
            guard marker == 0x33 else { throw Problem(message: "unknown marker 0x\(String(marker, radix: 16))", offset: position) }
            let range = try span(position + 1, 8, of: "a date")
            var value: UInt64 = 0
            for b in bytes[range] { value = value << 8 | UInt64(b) }
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: value)))
        case 0x4:
            let (count, start) = try length(marker: marker, at: position)
            return .data(Data(bytes[try span(start, count, of: "data")]))
        case 0x5:
            let (count, start) = try length(marker: marker, at: position)
            let range = try span(start, count, of: "a string")
            guard let s = String(bytes: bytes[range], encoding: .ascii) else {
                throw Problem(message: "an ASCII string holds bytes beyond ASCII", offset: position)
            }
            return .string(s)
        case 0x6:
            let (count, start) = try length(marker: marker, at: position)
            guard count <= bytes.count / 2 else { throw Problem(message: "a string of \(count) characters runs past the end of the file", offset: position) }
            let range = try span(start, count * 2, of: "a string")
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for i in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            return .uid(try integer(at: position + 1, size: size))
        case 0xA, 0xC:
            let (count, start) = try length(marker: marker, at: position)
            let references = try self.references(start, count)
            path.append(index)
            defer { path.removeLast() }
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(references.count)
            for r in references { elements.append(try object(r, path: &path)) }
            return marker >> 4 == 0xA ? .array(elements) : .set(elements)
        case 0xD:
            let (count, start) = try length(marker: marker, at: position)
            let keys = try references(start, count)
            let values = try references(start + count * referenceSize, count)   // in the file: checked by the line above
            path.append(index)
            defer { path.removeLast() }
            var dictionary: [String: PropertyListValue] = [:]
            dictionary.reserveCapacity(count)
            for (k, v) in zip(keys, values) {
                guard case .string(let key) = try object(k, path: &path) else {
                    throw Problem(message: "a dictionary key is not a string", offset: offsets[k])
                }
                dictionary[key] = try object(v, path: &path)
            }
            return .dictionary(dictionary)
        default:
            throw Problem(message: "unknown marker 0x\(String(marker, radix: 16))", offset: position)
        }
    }

    private func references(_ start: Int, _ count: Int) throws -> [Int] {
        // A length the file cannot hold is refused before it is multiplied (and overflows).
        guard count <= bytes.count / referenceSize else {
            throw Problem(message: "a collection of \(count) objects runs past the end of the file", offset: start)
        }
        _ = try span(start, count * referenceSize, of: "a collection")
        return try (0..<count).map { try integer(at: start + $0 * referenceSize, size: referenceSize) }
    }
}
