import Foundation
import Predicates

/// An `NSKeyedArchiver` archive, read without the classes it names: objects are their
/// class names and fields, references are followed on request.
///
/// The layout is public: a top dictionary with `$archiver`, `$version`, `$top` (whose
/// `root` refers to the archived object) and `$objects`, the flat list every `uid` points
/// into; index 0 holds `$null`. Each archived object names its class through `$class`, a
/// reference to `{$classname, $classes}`.
package struct KeyedArchive {
    /// One archived object: its class and its encoded fields.
    package struct Object {
        package let index: Int
        package let className: String
        /// The class and its superclasses, most specific first.
        package let classes: [String]
        package let fields: [String: PropertyListValue]

        package subscript(key: String) -> PropertyListValue? { fields[key] }

        package func isKind(of name: String) -> Bool { classes.contains(name) }
    }

    /// A structural problem, with the object it was found in.
    package struct Problem: Error {
        package var message: String
    }

    private let objects: [PropertyListValue]
    let root: Int

    package init(_ top: PropertyListValue) throws {
        guard let dictionary = top.dictionary else {
            throw Problem(message: "the property list is not a keyed archive (its top object is not a dictionary)")
        }
        guard dictionary["$archiver"]?.string == "NSKeyedArchiver" else {
            throw Problem(message: "the property list is not an NSKeyedArchiver archive (no $archiver NSKeyedArchiver)")
        }
        guard case .array(let objects)? = dictionary["$objects"] else {
            throw Problem(message: "the archive has no $objects list")
        }
        guard let root = dictionary["$top"]?.dictionary?["root"]?.uid, root > 0, root < objects.count else {
            throw Problem(message: "the archive's $top names no root object")
        }
        self.objects = objects
        self.root = root
    }

    /// The value a field holds, with a reference followed; `nil` for `$null` and no value.
    package func resolve(_ value: PropertyListValue?) -> PropertyListValue? {
        guard var value else { return nil }
        if case .uid(let index) = value {
            guard index > 0, index < objects.count else { return nil }
            value = objects[index]
        }
        if case .string("$null") = value { return nil }
        return value
    }

    /// The archived object a field refers to; `nil` for `$null` or a plain value.
    package func object(_ value: PropertyListValue?) throws -> Object? {
        guard case .uid(let index)? = value, index > 0, index < objects.count else { return nil }
        guard case .dictionary(let fields) = objects[index] else { return nil }
        guard let classRef = fields["$class"]?.uid, classRef < objects.count,
              let classInfo = objects[classRef].dictionary,
              let name = classInfo["$classname"]?.string else {
            throw Problem(message: "object \(index) names no class")
        }
        let classes = classInfo["$classes"]?.elements?.compactMap(\.string) ?? [name]
        return Object(index: index, className: name, classes: classes, fields: fields)
    }

    /// The root object.
    package func rootObject() throws -> Object {
        guard let object = try object(.uid(root)) else { throw Problem(message: "the root object is not an archived object") }
        return object
    }

    /// A string a field holds or refers to (an `NSString` object's `NS.string` too).
    package func string(_ value: PropertyListValue?) throws -> String? {
        guard let resolved = resolve(value) else { return nil }
        if case .string(let s) = resolved { return s }
        if let object = try object(value), let s = object["NS.string"]?.string { return s }
        throw Problem(message: "expected a string, found \(Self.describe(resolved))")
    }

    /// The elements of an `NSArray`, `NSSet` or `NSOrderedSet` a field refers to, each
    /// still a reference; `[]` for `$null`.
    package func elements(_ value: PropertyListValue?) throws -> [PropertyListValue] {
        guard resolve(value) != nil else { return [] }
        guard let object = try object(value), let elements = object["NS.objects"]?.elements else {
            throw Problem(message: "expected an array or set, found \(Self.describe(resolve(value)))")
        }
        return elements
    }

    /// The entries of a dictionary a field refers to, in the archive's order; `[]` for `$null`.
    ///
    /// Reads `NSDictionary` (`NS.keys`, `NS.objects`) and the `NSKnownKeysDictionary1` the
    /// model cache uses: values in a list beside a mapping strategy that lists the keys, with
    /// an "empty slot" token for keys that have no value.
    ///
    /// A key given twice is refused: no dictionary holds one, and a model would hold two
    /// entities (properties, templates) of one name.
    package func entries(_ value: PropertyListValue?) throws -> [(key: String, value: PropertyListValue)] {
        let entries = try allEntries(value)
        var seen = Set<String>()
        for (key, _) in entries where !seen.insert(key).inserted {
            throw Problem(message: "a dictionary has the key '\(key)' twice")
        }
        return entries
    }

    private func allEntries(_ value: PropertyListValue?) throws -> [(key: String, value: PropertyListValue)] {
        guard resolve(value) != nil else { return [] }
        guard let object = try object(value) else {
            throw Problem(message: "expected a dictionary, found \(Self.describe(resolve(value)))")
        }
        if let keys = object["NS.keys"]?.elements, let values = object["NS.objects"]?.elements {
            guard keys.count == values.count else {
                throw Problem(message: "dictionary \(object.index) has \(keys.count) keys and \(values.count) values")
            }
            return try zip(keys, values).map { key, value in
                guard let name = try string(key) else { throw Problem(message: "dictionary \(object.index) has a key that is not a string") }
                return (name, value)
            }
        }
        if object.isKind(of: "NSKnownKeysDictionary") {
            guard let mapping = try self.object(object["searchMapping"]) else {
                throw Problem(message: "known-keys dictionary \(object.index) has no key mapping")
            }
            let keys = try elements(mapping["keys"])
            let values = try elements(object["values"])
            guard keys.count == values.count else {
                throw Problem(message: "known-keys dictionary \(object.index) has \(keys.count) keys and \(values.count) values")
            }
            let empty = try string(object["emptyToken"])
            var result: [(key: String, value: PropertyListValue)] = []
            for (key, value) in zip(keys, values) {
                guard let name = try string(key) else { throw Problem(message: "dictionary \(object.index) has a key that is not a string") }
                if let empty, case .string(empty)? = resolve(value) { continue }
                result.append((name, value))
            }
            return result
        }
        throw Problem(message: "expected a dictionary, found a \(object.className)")
    }

    /// A plain value a field holds or refers to, as an object value: numbers, strings,
    /// booleans, data, and the archived `NSDate`, `NSUUID`, `NSURL`, `NSDecimalNumber` and
    /// `NSData`. `nil` for a value of another class.
    package func value(_ value: PropertyListValue?) throws -> ObjectValue? {
        guard let resolved = resolve(value) else { return .null }
        switch resolved {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .real(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data(d)
        case .date(let d): return .date(d)
        case .uid, .array, .set: return nil
        case .dictionary:
            guard let object = try object(value) else { return nil }
            if object.isKind(of: "NSDate"), case .real(let t)? = object["NS.time"] {
                return .date(Date(timeIntervalSinceReferenceDate: t))
            }
            if object.isKind(of: "NSDate"), let t = object["NS.time"]?.int {
                return .date(Date(timeIntervalSinceReferenceDate: Double(t)))
            }
            if object.isKind(of: "NSUUID"), case .data(let bytes)? = object["NS.uuidbytes"], bytes.count == 16 {
                let b = Array(bytes)
                return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                         b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
            }
            if object.isKind(of: "NSURL") { return try url(object, depth: 0).map(ObjectValue.url) }
            if object.isKind(of: "NSData"), case .data(let d)? = object["NS.data"] { return .data(d) }
            if object.isKind(of: "NSString"), let s = object["NS.string"]?.string { return .string(s) }
            if object.isKind(of: "NSDecimalNumber") { return Self.decimal(object).map(ObjectValue.decimal) }
            return nil
        }
    }

    /// An archived `NSURL`: `NS.relative` against `NS.base`, which Foundation archives as
    /// another `NSURL` (or a string), resolved a few levels deep at most.
    private func url(_ object: Object, depth: Int) throws -> URL? {
        guard depth < 8, let relative = try string(object["NS.relative"]) else { return nil }
        var base: URL?
        if let baseObject = try self.object(object["NS.base"]), baseObject.isKind(of: "NSURL") {
            base = try url(baseObject, depth: depth + 1)
        } else if case .string(let text)? = resolve(object["NS.base"]) {
            base = URL(string: text)
        }
        return URL(string: relative, relativeTo: base)?.absoluteURL
    }

    /// An archived `NSDecimalNumber`: the mantissa as `NSDecimal` keeps it (16-bit words,
    /// least significant first, each in the byte order `NS.mantissa.bo` names: 1 little
    /// endian, 2 big endian), an exponent and a sign.
    private static func decimal(_ object: Object) -> Decimal? {
        // Decimal's exponent is a signed byte's: a larger one is no decimal (and would trap).
        guard let exponent = object["NS.exponent"]?.int, (-128...127).contains(exponent), let negative = object["NS.negative"]?.bool,
              case .data(let mantissa)? = object["NS.mantissa"], mantissa.count % 2 == 0 else { return nil }
        let bytes = Array(mantissa)
        let bigEndian = object["NS.mantissa.bo"]?.int == 2
        var words: [Int] = stride(from: 0, to: bytes.count, by: 2).map {
            bigEndian ? Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) : Int(bytes[$0 + 1]) << 8 | Int(bytes[$0])
        }
        if let length = object["NS.length"]?.int, length >= 0, length < words.count { words = Array(words.prefix(length)) }
        var significand = Decimal(0)
        for word in words.reversed() { significand = significand * 65536 + Decimal(word) }
        return Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: significand)
    }

    static func describe(_ value: PropertyListValue?) -> String {
        switch value {
        case nil: return "nothing"
        case .null?: return "a null"
        case .bool?: return "a boolean"
        case .int?: return "an integer"
        case .real?: return "a real number"
        case .date?: return "a date"
        case .data?: return "data"
        case .string(let s)?: return "the string \"\(s.prefix(40))\""
        case .uid?: return "a reference"
        case .array?: return "an array"
        case .set?: return "a set"
        case .dictionary?: return "an archived object"
        }
    }
}
