import Foundation

/// Encodes a value to JSON in one pass over its `encode(to:)`, writing bytes as it goes.
///
/// The same JSON as `WireCoding.makeEncoder()` (Foundation's `JSONEncoder` with dates as epoch
/// seconds): nil members omitted, numbers as Swift prints them without a trailing `.0`, `Data` as
/// base64, `/` escaped as `\/`, control characters as `\b \t \n \f \r` or `\u00XX`. Members come
/// out in the order `encode(to:)` writes them (JSONEncoder on Linux orders them by hash). It
/// builds no tree of values first, which is most of what `JSONEncoder` spends on a response.
///
/// Contract: a nested container or super-encoder must be written before its parent writes its
/// next member (so it is, in synthesized and generated `encode(to:)`); it is closed then.
/// Non-finite numbers throw `EncodingError.invalidValue`, as with `JSONEncoder`.
public enum WireJSONEncoder {
    /// A shape of the model writes itself (``WireJSONWritable``): no Encoder, no containers.
    public static func encode<Value: WireJSONWritable>(_ value: Value) throws -> Data {
        let output = JSONOutput()
        try value.writeJSON(to: output)
        return Data(output.bytes)
    }

    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        if let writable = value as? any WireJSONWritable { return try encode(writable) }
        let output = JSONOutput()
        try output.write(value, path: .root)
        return Data(output.bytes)
    }

    /// Through `encode(to:)` even where the value writes itself: the reference the generated
    /// writers are tested against.
    public static func encodeThroughEncoder<Value: Encodable>(_ value: Value) throws -> Data {
        let output = JSONOutput()
        try output.write(value, path: .root)
        return Data(output.bytes)
    }
}

/// The bytes written so far, shared by every encoder and container of one `encode`, and the
/// writer that generated ``WireJSONWritable`` shapes write into.
public final class JSONOutput {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    /// Writes one value: scalars directly, anything else through its `encode(to:)`.
    ///
    /// A string is told by its type alone, anything else by one conformance check
    /// (``JSONScalar``): one dynamic cast per candidate type cost more than writing a value.
    func write<Value: Encodable>(_ value: Value, path: CodingPathNode) throws {
        if Value.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if let scalar = value as? any JSONScalar {
            try scalar.write(to: self, path: path)
        } else {
            let encoder = StreamingJSONEncoder(output: self, path: path)
            try value.encode(to: encoder)
            encoder.close()
        }
    }

    func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    func writeNumber<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number, path: CodingPathNode) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path.codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        writeRaw(text)
    }

    public func writeString(_ string: String) {
        JSONStringWriter.append(string, to: &bytes, style: .foundation)
    }
}

/// Where a value sits, for error messages only (built into a coding path when asked).
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, parent: CodingPathNode)

    var codingPath: [any CodingKey] {
        switch self {
        case .root: return []
        case .key(let key, let parent): return parent.codingPath + [key]
        }
    }

    func appending(_ key: any CodingKey) -> CodingPathNode { .key(key, parent: self) }
}

/// The encoder of one value: opens an object or array when its value asks for a container and
/// closes it when the value is done (`close`).
final class StreamingJSONEncoder: Encoder {
    private enum Shape { case none, object, array, single }

    let output: JSONOutput
    let path: CodingPathNode
    private var shape = Shape.none
    /// Members or elements written so far (a comma goes before every one after the first).
    private var count = 0
    /// A nested container or super-encoder still open: closed before the next member.
    private var openChild: StreamingJSONEncoder?

    init(output: JSONOutput, path: CodingPathNode) {
        self.output = output
        self.path = path
    }

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        open(.object)
        return KeyedEncodingContainer(KeyedStreamingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(.array)
        return UnkeyedStreamingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueStreamingContainer(encoder: self)
    }

    private func open(_ requested: Shape) {
        guard shape == .none else { return }
        shape = requested
        output.bytes.append(requested == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    }

    /// Ends this value: closes its object or array; a value that wrote nothing is `{}`.
    func close() {
        closeChild()
        switch shape {
        case .object: output.bytes.append(UInt8(ascii: "}"))
        case .array: output.bytes.append(UInt8(ascii: "]"))
        case .none: output.bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .single: break
        }
    }

    private func closeChild() {
        openChild?.close()
        openChild = nil
    }

    /// Before a member: closes an open child, writes the comma and, in an object, the key.
    func beginMember(_ key: (any CodingKey)?) {
        closeChild()
        if count > 0 { output.bytes.append(UInt8(ascii: ",")) }
        count += 1
        if let key {
            output.writeString(key.stringValue)
            output.bytes.append(UInt8(ascii: ":"))
        }
    }

    /// A single value written directly into this encoder.
    func beginSingleValue() {
        shape = .single
    }

    /// A child encoder for a nested container or super-encoder, closed before the next member.
    func child(at path: CodingPathNode) -> StreamingJSONEncoder {
        let child = StreamingJSONEncoder(output: output, path: path)
        openChild = child
        return child
    }
}

private struct KeyedStreamingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamingJSONEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var output: JSONOutput { encoder.output }

    init(encoder: StreamingJSONEncoder) { self.encoder = encoder }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.beginMember(key)
        output.writeRaw("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(value, key) }

    private func member<Value: Encodable>(_ value: Value, _ key: Key) throws {
        encoder.beginMember(key)
        try output.write(value, path: encoder.path.appending(key))
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try member(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.beginMember(key)
        return encoder.child(at: encoder.path.appending(key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.beginMember(key)
        return encoder.child(at: encoder.path.appending(key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.beginMember(key)
        return encoder.child(at: encoder.path.appending(key))
    }
}

private struct UnkeyedStreamingContainer: UnkeyedEncodingContainer {
    let encoder: StreamingJSONEncoder
    private(set) var count = 0
    var codingPath: [any CodingKey] { encoder.codingPath }

    init(encoder: StreamingJSONEncoder) { self.encoder = encoder }

    private mutating func next() -> CodingPathNode {
        encoder.beginMember(nil)
        defer { count += 1 }
        return encoder.path.appending(WireIndexKey(count))
    }

    mutating func encodeNil() throws {
        _ = next()
        encoder.output.writeRaw("null")
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws { try element(value) }
    mutating func encode(_ value: Bool) throws { try element(value) }
    mutating func encode(_ value: String) throws { try element(value) }
    mutating func encode(_ value: Double) throws { try element(value) }
    mutating func encode(_ value: Float) throws { try element(value) }
    mutating func encode(_ value: Int) throws { try element(value) }
    mutating func encode(_ value: Int8) throws { try element(value) }
    mutating func encode(_ value: Int16) throws { try element(value) }
    mutating func encode(_ value: Int32) throws { try element(value) }
    mutating func encode(_ value: Int64) throws { try element(value) }
    mutating func encode(_ value: UInt) throws { try element(value) }
    mutating func encode(_ value: UInt8) throws { try element(value) }
    mutating func encode(_ value: UInt16) throws { try element(value) }
    mutating func encode(_ value: UInt32) throws { try element(value) }
    mutating func encode(_ value: UInt64) throws { try element(value) }

    private mutating func element<Value: Encodable>(_ value: Value) throws {
        let path = next()
        try encoder.output.write(value, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = next()
        return encoder.child(at: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = next()
        return encoder.child(at: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = next()
        return encoder.child(at: path)
    }
}

private struct SingleValueStreamingContainer: SingleValueEncodingContainer {
    let encoder: StreamingJSONEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.beginSingleValue()
        encoder.output.writeRaw("null")
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws { try write(value) }
    mutating func encode(_ value: Bool) throws { try write(value) }
    mutating func encode(_ value: String) throws { try write(value) }
    mutating func encode(_ value: Double) throws { try write(value) }
    mutating func encode(_ value: Float) throws { try write(value) }
    mutating func encode(_ value: Int) throws { try write(value) }
    mutating func encode(_ value: Int8) throws { try write(value) }
    mutating func encode(_ value: Int16) throws { try write(value) }
    mutating func encode(_ value: Int32) throws { try write(value) }
    mutating func encode(_ value: Int64) throws { try write(value) }
    mutating func encode(_ value: UInt) throws { try write(value) }
    mutating func encode(_ value: UInt8) throws { try write(value) }
    mutating func encode(_ value: UInt16) throws { try write(value) }
    mutating func encode(_ value: UInt32) throws { try write(value) }
    mutating func encode(_ value: UInt64) throws { try write(value) }

    private func write<Value: Encodable>(_ value: Value) throws {
        encoder.beginSingleValue()
        try encoder.output.write(value, path: encoder.path)
    }
}

/// A value written as one JSON scalar rather than through its `encode(to:)`.
protocol JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) throws
}

extension String: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeString(self) }
}

extension Bool: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeRaw(self ? "true" : "false") }
}

extension Double: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) throws { try output.writeNumber(self, path: path) }
}

extension Float: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) throws { try output.writeNumber(self, path: path) }
}

extension Date: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) throws {
        try output.writeNumber(timeIntervalSince1970, path: path)
    }
}

extension Data: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeString(base64EncodedString()) }
}

extension URL: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeString(absoluteString) }
}

extension Decimal: JSONScalar {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeRaw(description) }
}

/// Every integer type (`Int32` members, and any other a shape may use).
extension JSONScalar where Self: BinaryInteger {
    func write(to output: JSONOutput, path: CodingPathNode) { output.writeRaw(String(self)) }
}

extension Int: JSONScalar {}
extension Int8: JSONScalar {}
extension Int16: JSONScalar {}
extension Int32: JSONScalar {}
extension Int64: JSONScalar {}
extension UInt: JSONScalar {}
extension UInt8: JSONScalar {}
extension UInt16: JSONScalar {}
extension UInt32: JSONScalar {}
extension UInt64: JSONScalar {}

