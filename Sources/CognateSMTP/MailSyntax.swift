/// Character classes of RFC 5321/5322 used to validate what goes on the wire.

func isAlphanumeric(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
}

/// `atext` of RFC 5322 §3.2.3: what a dot-atom local part may contain besides dots.
func isAtext(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
}

/// Printable US-ASCII, space excluded (`VCHAR`).
func isVisibleASCII(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) }

/// A DNS name in ASCII (A-labels for internationalized names): dot-separated labels of letters,
/// digits and inner hyphens, each 1–63 octets, 253 in all; a single trailing dot is not allowed.
enum DomainName {
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            guard (1...63).contains(label.count), let first = label.first, let last = label.last else { return false }
            return isAlphanumeric(first) && isAlphanumeric(last)
                && label.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }
}
