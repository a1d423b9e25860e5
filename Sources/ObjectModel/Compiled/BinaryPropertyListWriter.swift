import Foundation

/// Writes `bplist00` files: the keyed archives of transformable values, and the compiled
/// models the tests make. Dictionary keys are written sorted, so the same value gives the same
/// bytes.
package enum BinaryPropertyListWriter {
    /// The binary property list of a value.
    package static func write(_ value: PropertyListValue) -> Data {
        var objects: [[UInt8]] = []
        var refs: [[Int]] = []   // references of each object, patched in once sizes are known
        func add(_ value: PropertyListValue) -> Int {
            let index = objects.count
            objects.append([])
            refs.append([])
            var bytes: [UInt8] = []
            func header(_ kind: UInt8, _ count: Int) {
                if count < 15 { bytes.append(kind << 4 | UInt8(count)) } else {
                    bytes.append(kind << 4 | 0x0F)
                    bytes.append(0x13)
                    bytes += withUnsafeBytes(of: UInt64(count).bigEndian, Array.init)
                }
            }
            switch value {
            case .null: bytes = [0x00]
            case .bool(let b): bytes = [b ? 0x09 : 0x08]
            case .int(let i): bytes = [0x13] + withUnsafeBytes(of: Int64(i).bigEndian, Array.init)
            case .real(let d): bytes = [0x23] + withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init)
            case .date(let d): bytes = [0x33] + withUnsafeBytes(of: d.timeIntervalSinceReferenceDate.bitPattern.bigEndian, Array.init)
            case .data(let d): header(0x4, d.count); bytes += d
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) { header(0x5, s.utf8.count); bytes += s.utf8 } else {
                    let units = Array(s.utf16)
                    header(0x6, units.count)
                    for u in units { bytes += [UInt8(u >> 8), UInt8(u & 0xFF)] }
                }
            case .uid(let u): bytes = [0x83] + withUnsafeBytes(of: UInt32(u).bigEndian, Array.init)
            case .array(let a), .set(let a):
                let kind: UInt8 = { if case .set = value { return 0xC } else { return 0xA } }()
                header(kind, a.count)
                objects[index] = bytes
                refs[index] = a.map { add($0) }
                return index
            case .dictionary(let d):
                header(0xD, d.count)
                objects[index] = bytes
                let keys = d.keys.sorted()
                refs[index] = keys.map { add(.string($0)) } + keys.map { add(d[$0]!) }
                return index
            }
            objects[index] = bytes
            return index
        }
        let top = add(value)
        let referenceSize = objects.count < 256 ? 1 : objects.count < 65536 ? 2 : 4
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(out.count)
            out += object
            for r in refs[i] { out += withUnsafeBytes(of: UInt32(r).bigEndian, Array.init).suffix(referenceSize) }
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65536 ? 2 : 4
        for o in offsets { out += withUnsafeBytes(of: UInt32(o).bigEndian, Array.init).suffix(offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        out += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(top).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(out)
    }
}
