import Foundation

/// Reads which attributes a pool requires from Cognito's refusal of a sign-up
/// ("Attributes did not conform to the schema: given_name: The attribute given_name is
/// required") or of a new-password answer ("Invalid attributes given, given_name is missing").
enum RequiredAttributeMessage {
    static func attributeNames(in message: String) -> [String] {
        let patterns = [
            #"([\w:.\-]+): The attribute (?:[\w:.\-]+ )?is required"#,
            #"Invalid attributes given, ([\w:.\-]+) is missing"#,
        ]
        var names: [String] = []
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            let range = NSRange(message.startIndex..., in: message)
            for match in regex.matches(in: message, range: range) {
                guard let found = Range(match.range(at: 1), in: message) else { continue }
                // Cognito names the standard `name` attribute "name.formatted" in this message.
                var name = String(message[found])
                if name.hasSuffix(".formatted") { name = String(name.dropLast(".formatted".count)) }
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}
