/// Compact JSON text of a value, written directly (JWT claims are serialized on every
/// sign-in and refresh, and Foundation's encoder costs more than the rest of the token).
///
/// Contract: RFC 8259 output; object keys in sorted order (the same value always gives the
/// same text); numbers without a fraction written as integers (`1795000000`, as JWT readers
/// expect of `exp` and `iat`), others as Swift's shortest round-tripping form; strings with
/// `"`, `\` and control characters escaped, everything else as UTF-8.
extension JSONValue {
    public var jsonBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            if value.isFinite, value.rounded() == value, abs(value) < 9e15 {
                output.append(contentsOf: String(Int64(value)).utf8)
            } else if value.isFinite {
                output.append(contentsOf: String(value).utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let value): JSONStringWriter.append(value, to: &output, style: .compact)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONStringWriter.append(member.key, to: &output, style: .compact)
                output.append(UInt8(ascii: ":"))
                member.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
