import Foundation

/// A pool's rules for device PINs (a Cognate extension of the Cognito API).
///
/// Contract: a PIN never leaves the device, so the server cannot check one; it publishes the
/// policy (`GetPinPolicy`) and the SDK applies ``violations(of:)`` before a PIN is registered.
/// What the server does enforce is `maximumAttempts`: that many wrong PINs in a row forget the
/// device and end its sessions. A pool without a policy does not offer PIN sign-in.
public struct PinPolicy: Codable, Sendable, Equatable {
    /// Digits a PIN has at least and at most.
    public var minimumLength: Int
    public var maximumLength: Int
    /// Whether a PIN may be one run of consecutive digits, up or down (`12345`, `8765`).
    public var allowSequences: Bool
    /// How often one digit may occur in a PIN.
    public var maximumSimilarDigits: Int
    /// PINs refused whatever the other rules say (birth years, `11111`, …).
    public var blockList: [String]
    /// Wrong PINs in a row before the device is forgotten (1…10).
    public var maximumAttempts: Int

    public init(minimumLength: Int = 5, maximumLength: Int = 8, allowSequences: Bool = false,
                maximumSimilarDigits: Int = 2, blockList: [String] = [], maximumAttempts: Int = 3) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.allowSequences = allowSequences
        self.maximumSimilarDigits = maximumSimilarDigits
        self.blockList = blockList
        self.maximumAttempts = maximumAttempts
    }

    enum CodingKeys: String, CodingKey {
        case minimumLength = "MinimumLength"
        case maximumLength = "MaximumLength"
        case allowSequences = "AllowSequences"
        case maximumSimilarDigits = "MaximumSimilarDigits"
        case blockList = "BlockList"
        case maximumAttempts = "MaximumAttempts"
    }

    /// Members left out take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PinPolicy()
        minimumLength = try container.decodeIfPresent(Int.self, forKey: .minimumLength) ?? defaults.minimumLength
        maximumLength = try container.decodeIfPresent(Int.self, forKey: .maximumLength) ?? defaults.maximumLength
        allowSequences = try container.decodeIfPresent(Bool.self, forKey: .allowSequences) ?? defaults.allowSequences
        maximumSimilarDigits = try container.decodeIfPresent(Int.self, forKey: .maximumSimilarDigits)
            ?? defaults.maximumSimilarDigits
        blockList = try container.decodeIfPresent([String].self, forKey: .blockList) ?? defaults.blockList
        maximumAttempts = try container.decodeIfPresent(Int.self, forKey: .maximumAttempts) ?? defaults.maximumAttempts
    }

    /// Why the policy itself is unusable (nil: it is fine): the bounds a server accepts.
    public var problem: String? {
        if minimumLength < 4 || minimumLength > 12 { return "MinimumLength must be between 4 and 12." }
        if maximumLength < minimumLength || maximumLength > 12 { return "MaximumLength must be between MinimumLength and 12." }
        if maximumSimilarDigits < 1 || maximumSimilarDigits > maximumLength {
            return "MaximumSimilarDigits must be between 1 and MaximumLength."
        }
        if maximumAttempts < 1 || maximumAttempts > 10 { return "MaximumAttempts must be between 1 and 10." }
        if blockList.count > 1000 { return "BlockList may hold at most 1000 PINs." }
        return nil
    }

    /// Every rule `pin` breaks, in the order of ``PinPolicyViolation``'s cases (empty: allowed).
    public func violations(of pin: String) -> [PinPolicyViolation] {
        let digits = pin.compactMap(\.wholeNumberValue)
        guard digits.count == pin.count, pin.allSatisfy(\.isASCII) else { return [.notDigits] }
        var found: [PinPolicyViolation] = []
        if digits.count < minimumLength { found.append(.tooShort(minimum: minimumLength)) }
        if digits.count > maximumLength { found.append(.tooLong(maximum: maximumLength)) }
        if !allowSequences, digits.count > 1, Self.isSequence(digits) { found.append(.sequence) }
        let mostRepeated = Dictionary(digits.map { ($0, 1) }, uniquingKeysWith: +).values.max() ?? 0
        if mostRepeated > maximumSimilarDigits { found.append(.tooManySimilarDigits(maximum: maximumSimilarDigits)) }
        if blockList.contains(pin) { found.append(.blockListed) }
        return found
    }

    /// One run of consecutive digits going up or down (wrapping is not a sequence).
    static func isSequence(_ digits: [Int]) -> Bool {
        let steps = zip(digits, digits.dropFirst()).map { $1 - $0 }
        return steps.allSatisfy { $0 == 1 } || steps.allSatisfy { $0 == -1 }
    }
}

/// A rule of ``PinPolicy`` that a PIN breaks.
public enum PinPolicyViolation: Sendable, Equatable, Hashable {
    case notDigits
    case tooShort(minimum: Int)
    case tooLong(maximum: Int)
    case sequence
    case tooManySimilarDigits(maximum: Int)
    case blockListed
}
