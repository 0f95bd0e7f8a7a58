import Foundation

/// Decodes request bodies into the generated wire shapes: what Foundation's `JSONDecoder` with
/// `.secondsSince1970` dates and base64 data does, at a fraction of its cost (every API request
/// is decoded once).
///
/// Contract: the same values and the same `DecodingError`s (case, type and coding path) as
/// Foundation's decoder for every body, so ``WireFault`` words a failure as before; the
/// differential tests hold the two side by side. Differences: a map's keys come in document
/// order (Foundation's come in hash order, so of two bad values in one map either may be
/// reported); `superDecoder` is the member's own; zeros are read as RFC 8259 spells them
/// (Foundation refuses some spellings of zero with an exponent, `0e5`, and reads a few
/// underflowing numbers, `0.000…1e0` with hundreds of zeros, as zero); an `Int` written with a
/// fraction or exponent beyond 2^53 is read through `Double`, not `Decimal` (no request member
/// is such an `Int`); and bodies must be UTF-8.
///
/// The shapes of the user-pool model read themselves (``WireReadable``, generated): the same
/// steps as their `init(from:)`, on this decoder's own container, with no `Decoder` protocol
/// in between; maps and lists of strings (`AuthParameters`, `ClientMetadata`) are read straight
/// from the document.
package enum WireJSONDecoder {
    /// `throughInitFromDecoder`: every shape through its `init(from:)`, even those that read
    /// themselves — the reference the generated readers are tested against.
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from body: Data, report: WireValidationReport?, throughInitFromDecoder: Bool = false
    ) throws -> Value {
        let source = WireJSONSource(body)
        let document = try WireJSON.parse(source)
        return try WireValueDecoder(document, in: source, codingPath: [], report: report, readsShapes: !throughInitFromDecoder)
            .read(type)
    }
}

/// A shape that reads itself from a ``WireValueDecoder`` (generated beside its `init(from:)`,
/// the same statements on ``WireKeyedContainer``): what the server's decoder calls for it.
protocol WireReadable {
    init(wire decoder: WireValueDecoder) throws
}

/// The decoder of one value, and its single-value container.
final class WireValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: WireJSON
    let source: WireJSONSource
    let codingPath: [any CodingKey]
    /// The validation report, read by generated readers directly and by `init(from:)` through
    /// `userInfo[.wireValidation]` (made when asked: most requests never ask).
    let report: WireValidationReport?
    var userInfo: [CodingUserInfoKey: Any] { report.map { [.wireValidation: $0] } ?? [:] }
    /// Whether ``WireReadable`` shapes read themselves, and string maps and lists are read
    /// without a container (else all of them through `init(from:)`).
    let readsShapes: Bool

    init(_ value: WireJSON, in source: WireJSONSource, codingPath: [any CodingKey], report: WireValidationReport?,
         readsShapes: Bool) {
        self.value = value
        self.source = source
        self.codingPath = codingPath
        self.report = report
        self.readsShapes = readsShapes
    }

    /// The decoder of a member or element of this value.
    func child(_ value: WireJSON, at codingPath: [any CodingKey]) -> WireValueDecoder {
        WireValueDecoder(value, in: source, codingPath: codingPath, report: report, readsShapes: readsShapes)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try wireContainer(keyedBy: type))
    }

    /// The keyed container itself, for ``WireReadable`` shapes: its members are read without
    /// the `KeyedDecodingContainer` box.
    func wireContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> WireKeyedContainer<Key> {
        try WireKeyedContainer<Key>(WireRead.object(value, codingPath), decoder: self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        WireUnkeyedContainer(try WireRead.array(value, codingPath), decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
    func decode(_ type: String.Type) throws -> String { try WireRead.string(source, value, codingPath) }
    func decode(_ type: Bool.Type) throws -> Bool { try WireRead.bool(source, value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try WireRead.double(source, value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try WireRead.float(source, value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try WireRead.integer(source, value, type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try WireRead.integer(source, value, type, codingPath) }

    /// `value` as `type`, Foundation's special cases (dates, data, URLs) included.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        try WireRead.value(value, as: type, codingPath: codingPath, decoder: self)
    }
}

/// Reads one JSON value as a Swift type, with Foundation's errors.
enum WireRead {
    /// `codingPath` is only made for a failure or a structure's own decoder: most members are
    /// strings, read without it.
    static func value<T: Decodable>(_ value: WireJSON, as type: T.Type, codingPath: @autoclosure () -> [any CodingKey],
                                    decoder: WireValueDecoder) throws -> T {
        let source = decoder.source
        // Foundation names these types in a null's error (`Bool`'s as a type mismatch).
        if case .null = value, T.self == Date.self || T.self == Data.self || T.self == URL.self {
            throw DecodingError.valueNotFound(T.self, .init(
                codingPath: codingPath(), debugDescription: "Cannot get value of type \(T.self) -- found null value instead"))
        }
        if T.self == String.self { return try string(source, value, codingPath()) as! T }
        if T.self == Bool.self { return try bool(source, value, codingPath()) as! T }
        if T.self == Int32.self { return try integer(source, value, Int32.self, codingPath()) as! T }
        if T.self == Int.self { return try integer(source, value, Int.self, codingPath()) as! T }
        if T.self == Double.self { return try double(source, value, codingPath()) as! T }
        if T.self == Date.self { return Date(timeIntervalSince1970: try double(source, value, codingPath())) as! T }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try string(source, value, codingPath())) else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: codingPath(), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(source, value, codingPath())) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath(), debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        if decoder.readsShapes, T.self == [String: String].self {
            return try stringMap(value, codingPath: codingPath(), decoder: decoder) as! T
        }
        if decoder.readsShapes, T.self == [String].self {
            return try stringList(value, codingPath: codingPath(), decoder: decoder) as! T
        }
        if decoder.readsShapes, let readable = T.self as? any WireReadable.Type {
            return try readable.init(wire: decoder.child(value, at: codingPath())) as! T
        }
        return try T(from: decoder.child(value, at: codingPath()))
    }

    /// A map of strings as `Dictionary.init(from:)` reads it through a keyed container (every
    /// name read first; each distinct name once, in document order, with its first value; the
    /// same errors), without the container, its key set or its coding keys.
    static func stringMap(_ value: WireJSON, codingPath: [any CodingKey], decoder: WireValueDecoder) throws
        -> [String: String]
    {
        let object = try object(value, codingPath)
        let source = decoder.source
        let names = try object.names.map(source.string)
        var map: [String: String] = [:]
        map.reserveCapacity(names.count)
        for (name, member) in zip(names, object.values) where map[name] == nil {
            map[name] = try string(source, member, codingPath + [WireMapKey(name)])
        }
        return map
    }

    /// A list of strings as `Array.init(from:)` reads it through an unkeyed container (the same
    /// values and errors), without the container.
    static func stringList(_ value: WireJSON, codingPath: [any CodingKey], decoder: WireValueDecoder) throws -> [String] {
        let elements = try array(value, codingPath)
        let source = decoder.source
        var list: [String] = []
        list.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            list.append(try string(source, element, codingPath + [WireIndexKey(index)]))
        }
        return list
    }

    /// The members of an object, or the keyed container's error for anything else.
    static func object(_ value: WireJSON, _ codingPath: [any CodingKey]) throws -> WireJSONObject {
        switch value {
        case .object(let object): return object
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default: throw mismatch([String: Any].self, value, codingPath)
        }
    }

    /// The elements of an array, or the unkeyed container's error for anything else.
    static func array(_ value: WireJSON, _ codingPath: [any CodingKey]) throws -> [WireJSON] {
        switch value {
        case .array(let elements): return elements
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default: throw mismatch([Any].self, value, codingPath)
        }
    }

    static func string(_ source: WireJSONSource, _ value: WireJSON, _ codingPath: @autoclosure () -> [any CodingKey]) throws
        -> String
    {
        guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath()) }
        return try source.string(text)
    }

    static func bool(_ source: WireJSONSource, _ value: WireJSON, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        if case .null = value {
            throw DecodingError.typeMismatch(Bool.self, .init(
                codingPath: codingPath(), debugDescription: "Expected to decode Bool but found null instead."))
        }
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, codingPath()) }
        return flag
    }

    static func integer<Integer: FixedWidthInteger>(_ source: WireJSONSource, _ value: WireJSON, _ type: Integer.Type,
                                                    _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Integer {
        guard case .number(let number) = value else { throw mismatch(type, value, codingPath()) }
        return try source.number(number).integer(type)
    }

    static func double(_ source: WireJSONSource, _ value: WireJSON, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, value, codingPath()) }
        return try source.number(number).double()
    }

    static func float(_ source: WireJSONSource, _ value: WireJSON, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
        guard case .number(let number) = value else { throw mismatch(Float.self, value, codingPath()) }
        let float = Float(try source.number(number).double())
        guard float.isFinite else { throw WireJSON.notValidJSON() }
        return float
    }

    /// `value` is not of `type`: a null is `valueNotFound`, anything else `typeMismatch`.
    static func mismatch(_ type: Any.Type, _ value: WireJSON, _ codingPath: [any CodingKey]) -> DecodingError {
        let found: String
        switch value {
        case .null:
            return DecodingError.valueNotFound(type, .init(
                codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        case .bool: found = "bool"
        case .number: found = "number"
        case .string: found = "a string"
        case .array: found = "an array"
        case .object: found = "a dictionary"
        }
        return DecodingError.typeMismatch(type, .init(
            codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }
}

/// The members of an object, read by name. Its names are read (and checked) when it is made,
/// as Foundation reads them.
struct WireKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let names: [String]
    let values: [WireJSON]
    /// Positions by name (a name's first), for objects too large to search member by member.
    let positions: [String: Int]?
    let decoder: WireValueDecoder

    private static var searchedMembers: Int { 16 }

    init(_ object: WireJSONObject, decoder: WireValueDecoder) throws {
        names = try object.names.map(decoder.source.string)
        values = object.values
        self.decoder = decoder
        if names.count > Self.searchedMembers {
            var positions: [String: Int] = [:]
            for (position, name) in names.enumerated() where positions[name] == nil { positions[name] = position }
            self.positions = positions
        } else {
            positions = nil
        }
    }

    private func value(named name: String) -> WireJSON? {
        if let positions { return positions[name].map { values[$0] } }
        return names.firstIndex(of: name).map { values[$0] }
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool { value(named: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(type, key) }

    private func read<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try WireRead.value(try member(key), as: type, codingPath: codingPath + [key], decoder: decoder)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, key) }

    // One look-up per optional member (the protocol's defaults take three), for every type.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = value(named: key.stringValue) else { return nil }
        if case .null = value { return nil }
        return try WireRead.value(value, as: type, codingPath: codingPath + [key], decoder: decoder)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }

    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(try member(key), at: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try member(key), at: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(value(named: "super") ?? .null, at: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(value(named: key.stringValue) ?? .null, at: codingPath + [key])
    }

    private func member(_ key: Key) throws -> WireJSON {
        guard let value = value(named: key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }
}

/// A map entry's name in a coding path, as the standard library's dictionaries name it (with
/// an integer value when the name is one).
struct WireMapKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = Int(name)
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// The elements of an array, read in order.
private struct WireUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [WireJSON]
    let decoder: WireValueDecoder
    private(set) var currentIndex = 0

    init(_ elements: [WireJSON], decoder: WireValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try element(Any?.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = decoder
        return try next(type) { try WireRead.value($1, as: type, codingPath: $2(), decoder: decoder) }
    }

    mutating func decode(_ type: String.Type) throws -> String { try next { try WireRead.string($0, $1, $2()) } }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try WireRead.bool($0, $1, $2()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try WireRead.double($0, $1, $2()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try WireRead.float($0, $1, $2()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try WireRead.integer($0, $1, type, $2()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try WireRead.integer($0, $1, type, $2()) } }

    /// Reads the current element (with its coding path) and moves past it.
    private mutating func next<T>(_ type: T.Type = T.self, _ read: (WireJSONSource, WireJSON, () -> [any CodingKey]) throws -> T)
        throws -> T
    {
        let path = { [codingPath, currentIndex] in codingPath + [WireIndexKey(currentIndex)] }
        let value = try read(decoder.source, try element(type), path)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try decoder.child(try element([String: Any].self), at: codingPath + [WireIndexKey(currentIndex)])
            .container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.child(try element([Any].self), at: codingPath + [WireIndexKey(currentIndex)])
            .unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let superDecoder = decoder.child(try element(Any.self), at: codingPath + [WireIndexKey(currentIndex)])
        currentIndex += 1
        return superDecoder
    }

    private func element(_ type: Any.Type) throws -> WireJSON {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: codingPath + [WireIndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }
}
