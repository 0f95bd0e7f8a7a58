import Foundation

/// A value that writes its own JSON into a ``JSONOutput``.
///
/// Scripts/generate-wire-types.py generates `writeJSON(to:)` for every shape of the model: the
/// same bytes its `encode(to:)` gives through ``WireJSONEncoder`` (members in declaration
/// order, nil members left out, maps in their iteration order), written member by member with
/// no `Encoder`, container or dynamic cast in between. Shapes written by hand keep the
/// default, which goes through their `encode(to:)`.
public protocol WireJSONWritable: Encodable {
    func writeJSON(to output: JSONOutput) throws
}

extension WireJSONWritable {
    public func writeJSON(to output: JSONOutput) throws {
        try output.write(self, path: .root)
    }
}

/// What generated `writeJSON(to:)` methods write with.
extension JSONOutput {
    /// `{`: an object's members follow, each after ``member(_:first:)``, then ``endObject()``.
    public func beginObject() { bytes.append(UInt8(ascii: "{")) }

    public func endObject() { bytes.append(UInt8(ascii: "}")) }

    /// A member's name: `quotedName` is the name in quotes with its colon (`"Name":`), written
    /// after a comma unless it is the object's first member.
    public func member(_ quotedName: StaticString, first: inout Bool) {
        if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
        quotedName.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public func writeInteger(_ value: Int) { writeRaw(String(value)) }

    public func writeBool(_ value: Bool) { writeRaw(value ? "true" : "false") }

    /// Seconds since 1970, as `JSONEncoder` writes dates for the Cognito API.
    public func writeDate(_ value: Date) throws { try value.write(to: self, path: .root) }

    /// Base64, as `JSONEncoder` writes `Data`.
    public func writeData(_ value: Data) { writeString(value.base64EncodedString()) }

    /// A value through its `encode(to:)` (a document member).
    public func writeEncodable<Value: Encodable>(_ value: Value) throws { try write(value, path: .root) }

    public func writeArray<Element>(_ elements: [Element], _ writeElement: (Element) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
            try writeElement(element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A map's entries in the dictionary's iteration order (as its `encode(to:)` writes them).
    public func writeMap<Value>(_ map: [String: Value], _ writeValue: (Value) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in map {
            if first { first = false } else { bytes.append(UInt8(ascii: ",")) }
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            try writeValue(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
