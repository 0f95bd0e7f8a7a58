import Crypto
import Foundation

/// The operator's list of breached passwords, for CompromisedCredentialsRiskConfiguration.
///
/// Contract: each line of the file is a password's SHA-1 in hex (optionally followed by
/// `:count`, the format of the "Have I Been Pwned" downloads) or, if it is not 40 hex digits,
/// a password in clear; blank lines are skipped. Only SHA-1 digests are kept, sorted, 20 bytes
/// each (a million passwords take 20 MB); a lookup is a binary search.
public struct BreachedPasswords: Sendable {
    private let digests: [UInt8]   // sorted 20-byte SHA-1 digests, back to back

    public static let empty = BreachedPasswords(sortedDigests: [])

    public var count: Int { digests.count / 20 }

    private init(sortedDigests: [UInt8]) {
        digests = sortedDigests
    }

    public init(lines: some Sequence<Substring>) {
        var all: [[UInt8]] = []
        for line in lines {
            let entry = line.hasSuffix("\r") ? line.dropLast() : line
            guard !entry.isEmpty else { continue }
            let hexPart = entry.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if hexPart.count == 40, let digest = Self.hexBytes(hexPart) {
                all.append(digest)
            } else {
                all.append(Array(Insecure.SHA1.hash(data: Data(entry.utf8))))
            }
        }
        all.sort { $0.lexicographicallyPrecedes($1) }
        var flat: [UInt8] = []
        flat.reserveCapacity(all.count * 20)
        var previous: [UInt8]?
        for digest in all where digest != previous {
            flat.append(contentsOf: digest)
            previous = digest
        }
        self.init(sortedDigests: flat)
    }

    /// Reads the list from a file; throws when it cannot be read.
    public static func load(path: String) throws -> BreachedPasswords {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return BreachedPasswords(lines: text.split(separator: "\n", omittingEmptySubsequences: true))
    }

    public func contains(password: String) -> Bool {
        let digest = Array(Insecure.SHA1.hash(data: Data(password.utf8)))
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let entry = digests[(middle * 20)..<(middle * 20 + 20)]
            if entry.elementsEqual(digest) { return true }
            if entry.lexicographicallyPrecedes(digest) { low = middle + 1 } else { high = middle }
        }
        return false
    }

    private static func hexBytes(_ hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
