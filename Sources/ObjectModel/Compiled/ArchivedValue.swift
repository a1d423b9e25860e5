import Foundation
import Predicates

/// Values as `NSKeyedArchiver` archives them: what a transformable attribute stores under
/// Core Data's `NSSecureUnarchiveFromData` transformer (and the older keyed-archive default).
///
/// Reading turns Foundation's classes into the values they hold — `NSArray`, `NSSet`,
/// `NSOrderedSet` (as an array), `NSDictionary` with string keys, `NSString`, `NSNumber`,
/// `NSDate`, `NSData`, `NSUUID`, `NSURL`, `NSDecimalNumber`, `NSNull` — and never runs or
/// makes anything else: an object of another class (an app's own, `UIColor`) is refused,
/// naming the class, and the bytes it came from are left as they are. Writing makes the
/// archive Foundation makes for the same value, a binary property list that Core Data on
/// Apple's systems reads back as those objects.
///
/// ```swift
/// let data = try ArchivedValue.archive(.array([.string("Milk"), .int(2)]))
/// try ArchivedValue.unarchive(data)          // .array([.string("Milk"), .int(2)])
/// ```
public enum ArchivedValue {
    /// Why bytes are not an archive of values this reader knows, or a value cannot be archived.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, in words.
        public var message: String
        /// The class of the archived object that cannot be read as a value, when that is why.
        public var className: String?

        /// A problem with this message, naming the class at fault if any.
        public init(message: String, className: String? = nil) {
            self.message = message
            self.className = className
        }

        /// The message.
        public var description: String { message }
    }

    /// How deep collections may nest in an archive read here (or written); deeper is
    /// refused, as is a collection that holds itself.
    public static let maximumDepth = 64

    /// How many values one archive may unfold into. An archive refers to an object as often as
    /// it likes, and the value repeats it at each place: a few hundred bytes of arrays that
    /// list the next one twice would unfold past any memory; such an archive is refused.
    public static let maximumValues = 1_000_000

    /// The value a keyed archive holds.
    ///
    /// - Throws: `Problem` for bytes that are no keyed archive, for an object of a class that
    ///   is not one of Foundation's values (named in `className`), a dictionary whose keys are
    ///   not strings, a collection that holds itself, or nesting past `maximumDepth`.
    public static func unarchive(_ data: Data) throws -> ObjectValue {
        let archive: KeyedArchive
        do { archive = try ArchivedExpressions.archive(in: data) } catch let problem as ArchivedExpressions.Problem {
            throw Problem(message: problem.message)
        }
        var reader = Reader(archive: archive)
        do {
            return try reader.value(.uid(archive.root))
        } catch let problem as KeyedArchive.Problem {
            throw Problem(message: problem.message)
        }
    }

    /// The keyed archive of a value, as Foundation's `NSKeyedArchiver` writes it (binary).
    ///
    /// - Throws: `Problem` for a value that is no Foundation value: a managed object, or
    ///   `.null` as the whole value (a nil attribute is stored as no value, not an archive).
    public static func archive(_ value: ObjectValue) throws -> Data {
        if case .null = value { throw Problem(message: "nil is stored as no value, not archived") }
        var writer = Writer()
        let root = try writer.add(value)
        return BinaryPropertyListWriter.write(.dictionary([
            "$version": .int(100000),
            "$archiver": .string("NSKeyedArchiver"),
            "$top": .dictionary(["root": .uid(root)]),
            "$objects": .array(writer.objects),
        ]))
    }

    private struct Reader {
        let archive: KeyedArchive
        var open: Set<Int> = []
        var unfolded = 0

        mutating func value(_ field: PropertyListValue?) throws -> ObjectValue {
            unfolded += 1
            guard unfolded <= ArchivedValue.maximumValues else {
                throw Problem(message: "the archive unfolds into more than \(ArchivedValue.maximumValues) values")
            }
            guard let object = try archive.object(field) else {
                guard let plain = try archive.value(field) else {
                    throw Problem(message: "a value of a kind an archive does not hold (\(KeyedArchive.describe(archive.resolve(field))))")
                }
                return plain
            }
            guard open.count < ArchivedValue.maximumDepth else {
                throw Problem(message: "collections nest more than \(ArchivedValue.maximumDepth) deep")
            }
            guard open.insert(object.index).inserted else {
                throw Problem(message: "the archive's \(object.className) holds itself", className: object.className)
            }
            defer { open.remove(object.index) }
            if object.isKind(of: "NSNull") { return .null }
            if object.isKind(of: "NSDictionary") {
                guard let keys = object["NS.keys"]?.elements, let values = object["NS.objects"]?.elements, keys.count == values.count else {
                    throw Problem(message: "a \(object.className) without matching NS.keys and NS.objects", className: object.className)
                }
                var result: [String: ObjectValue] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try self.value(key) else {
                        throw Problem(message: "a dictionary with a key that is not a string", className: object.className)
                    }
                    result[name] = try self.value(value)
                }
                return .dictionary(result)
            }
            for (kind, ordered) in [("NSArray", true), ("NSOrderedSet", true), ("NSSet", false)] where object.isKind(of: kind) {
                guard let elements = object["NS.objects"]?.elements else {
                    throw Problem(message: "a \(object.className) without NS.objects", className: object.className)
                }
                let values = try elements.map { try self.value($0) }
                return ordered ? .array(values) : .set(values)
            }
            if object.isKind(of: "NSString"), case .data(let bytes)? = object["NS.bytes"], let text = String(data: bytes, encoding: .utf8) {
                return .string(text)
            }
            if let plain = try archive.value(field) { return plain }
            throw Problem(message: "an object of the class \(object.className), which is no Foundation value (the app's own class, "
                          + "or one a transformer of its own reads)", className: object.className)
        }
    }

    /// Builds `$objects`: index 0 is `$null`, each class described once, strings shared.
    private struct Writer {
        var objects: [PropertyListValue] = [.string("$null")]
        private var classes: [String: Int] = [:]
        private var strings: [String: Int] = [:]

        private static let superclasses: [String: [String]] = [
            "NSDecimalNumber": ["NSNumber", "NSValue"],
        ]

        private mutating func append(_ value: PropertyListValue) -> Int {
            objects.append(value)
            return objects.count - 1
        }

        private mutating func classRef(_ name: String) -> PropertyListValue {
            if let index = classes[name] { return .uid(index) }
            let list = [name] + (Self.superclasses[name] ?? []) + ["NSObject"]
            let index = append(.dictionary(["$classname": .string(name), "$classes": .array(list.map(PropertyListValue.string))]))
            classes[name] = index
            return .uid(index)
        }

        private mutating func object(_ className: String, _ fields: [String: PropertyListValue]) -> Int {
            // The object's index comes before its class's, as Foundation numbers them.
            let index = append(.null)
            var fields = fields
            fields["$class"] = classRef(className)
            objects[index] = .dictionary(fields)
            return index
        }

        private var depth = 0

        mutating func add(_ value: ObjectValue) throws -> Int {
            depth += 1
            defer { depth -= 1 }
            guard depth <= ArchivedValue.maximumDepth else {
                throw Problem(message: "collections nest more than \(ArchivedValue.maximumDepth) deep")
            }
            switch value {
            case .null: return object("NSNull", [:])
            case .bool(let b): return append(.bool(b))
            case .int(let i): return append(.int(i))
            case .double(let d): return append(.real(d))
            case .string(let s):
                if let index = strings[s] { return index }
                let index = append(.string(s))
                strings[s] = index
                return index
            case .data(let d): return append(.data(d))
            case .date(let d): return object("NSDate", ["NS.time": .real(d.timeIntervalSinceReferenceDate)])
            case .uuid(let u): return object("NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: u.uuid) { Data($0) })])
            case .url(let u): return object("NSURL", ["NS.base": .uid(0), "NS.relative": .uid(try add(.string(u.absoluteString)))])
            case .decimal(let d): return object("NSDecimalNumber", try Self.decimalFields(d))
            case .array(let elements):
                let index = append(.null)
                let members = try elements.map { PropertyListValue.uid(try add($0)) }
                objects[index] = .dictionary(["NS.objects": .array(members), "$class": classRef("NSArray")])
                return index
            case .set(let elements):
                let index = append(.null)
                let members = try elements.map { PropertyListValue.uid(try add($0)) }
                objects[index] = .dictionary(["NS.objects": .array(members), "$class": classRef("NSSet")])
                return index
            case .dictionary(let entries):
                let index = append(.null)
                let keys = entries.keys.sorted()
                let keyRefs = try keys.map { PropertyListValue.uid(try add(.string($0))) }
                let valueRefs = try keys.map { PropertyListValue.uid(try add(entries[$0]!)) }
                objects[index] = .dictionary(["NS.keys": .array(keyRefs), "NS.objects": .array(valueRefs), "$class": classRef("NSDictionary")])
                return index
            case .object(let o):
                throw Problem(message: "an object (\(o.identity)) is no value to archive; an attribute holds values, a relationship objects")
            }
        }

        /// `NSDecimalNumber`'s fields: the mantissa in 16-bit words, least significant first,
        /// little endian (`NS.mantissa.bo` 1), as `KeyedArchive` reads them back.
        private static func decimalFields(_ decimal: Decimal) throws -> [String: PropertyListValue] {
            guard decimal.isFinite else { throw Problem(message: "a decimal that is not a number cannot be archived") }
            var significand = decimal.significand.magnitude
            var bytes: [UInt8] = []
            while significand > 0 {
                var quotient = Decimal(), divided = significand / 65536
                NSDecimalRound(&quotient, &divided, 0, .down)
                let word = NSDecimalNumber(decimal: significand - quotient * 65536).intValue
                bytes += [UInt8(word & 0xFF), UInt8(word >> 8)]
                significand = quotient
            }
            guard bytes.count <= 16 else { throw Problem(message: "a decimal of more than 38 digits cannot be archived") }
            return [
                "NS.exponent": .int(decimal.exponent), "NS.length": .int(bytes.count / 2),
                "NS.negative": .bool(decimal.sign == .minus && !decimal.isZero), "NS.compact": .bool(true),
                "NS.mantissa.bo": .int(1), "NS.mantissa": .data(Data(bytes + Array(repeating: 0, count: 16 - bytes.count))),
            ]
        }
    }
}
