import Foundation

/// Base64url without padding (RFC 4648 §5), as JWTs and opaque tokens use it.
///
/// Done byte by byte: every request decodes a token, and string replacement through
/// Foundation costs more than the signature check.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
        return table
    }()

    public static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0)) }) { return encoded }
        return Array(bytes).withUnsafeBytes { encode($0) }
    }

    /// Four symbols per three bytes, two or three for the last one or two; no padding.
    private static func encode(_ input: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { output in
            var index = 0, written = 0
            while index + 2 < input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[written] = alphabet[Int(chunk >> 18 & 63)]
                output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
                output[written + 2] = alphabet[Int(chunk >> 6 & 63)]
                output[written + 3] = alphabet[Int(chunk & 63)]
                index += 3
                written += 4
            }
            let rest = input.count - index
            if rest > 0 {
                var chunk = UInt32(input[index]) << 16
                if rest == 2 { chunk |= UInt32(input[index + 1]) << 8 }
                output[written] = alphabet[Int(chunk >> 18 & 63)]
                output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
                written += 2
                if rest == 2 {
                    output[written] = alphabet[Int(chunk >> 6 & 63)]
                    written += 1
                }
            }
            return written
        }
    }

    /// Decodes base64url; standard base64 (`+`, `/`) and trailing `=` padding are accepted too.
    /// Nil for anything else.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var symbols = Array(text.utf8)
        while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        guard symbols.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(symbols.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            var value = values[Int(symbol)]
            if symbol == UInt8(ascii: "+") { value = 62 } else if symbol == UInt8(ascii: "/") { value = 63 }
            guard value != 0xff else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return Data(output)
    }
}
