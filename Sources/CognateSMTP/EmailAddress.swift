/// A mailbox: an address (`local@domain`) and an optional display name.
///
/// The address is checked when the value is made, so it can go into `MAIL FROM`, `RCPT TO` and
/// the `From`/`To` headers as it is: a dot-atom local part (RFC 5322 §3.4.1, at most 64 octets)
/// and a DNS domain, in ASCII. Quoted local parts, address literals and internationalized
/// addresses (SMTPUTF8) are refused; give an internationalized domain in its `xn--` form.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    public let address: String
    /// Any Unicode text without control characters; encoded per RFC 2047 when not ASCII.
    public let displayName: String?

    /// - Throws: ``SMTPError/invalidMessage(_:)`` when the address or name cannot be sent as is.
    public init(_ address: String, displayName: String? = nil) throws {
        guard Self.isValidAddress(address) else {
            throw SMTPError.invalidMessage("\(address.debugDescription) is not a supported email address")
        }
        if let displayName {
            guard !displayName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw SMTPError.invalidMessage("the display name of \(address) contains a line break or another control character")
            }
        }
        self.address = address
        self.displayName = displayName?.isEmpty == true ? nil : displayName
    }

    public var description: String {
        guard let displayName else { return address }
        return "\(displayName) <\(address)>"
    }

    /// The part after the `@`.
    var domain: Substring { address[address.index(after: address.lastIndex(of: "@") ?? address.startIndex)...] }

    static func isValidAddress(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        guard (1...64).contains(local.count) else { return false }
        let localIsDotAtom = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty && atom.allSatisfy(isAtext)
        }
        return localIsDotAtom && DomainName.isValid(String(decoding: bytes[(at + 1)...], as: UTF8.self))
    }
}
