extension String {
    /// The string with every occurrence of `target` replaced by `replacement`, left to right,
    /// comparing UTF-8 bytes (so an occurrence starts and ends on characters' boundaries: UTF-8
    /// is self-synchronizing). Foundation's `replacingOccurrences` goes through `NSString` and
    /// costs about as much as the rest of a message's rendering; message templates are filled on
    /// every sign-up.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.utf8)
        guard let first = pattern.first else { return self }
        let text = Array(utf8)
        guard text.count >= pattern.count else { return self }
        var result: [UInt8] = []
        var index = 0, copiedUpTo = 0
        while index + pattern.count <= text.count {
            if text[index] == first, text[index..<index + pattern.count].elementsEqual(pattern) {
                if result.isEmpty { result.reserveCapacity(text.count + replacement.utf8.count) }
                result.append(contentsOf: text[copiedUpTo..<index])
                result.append(contentsOf: replacement.utf8)
                index += pattern.count
                copiedUpTo = index
            } else {
                index += 1
            }
        }
        guard copiedUpTo > 0 else { return self }
        result.append(contentsOf: text[copiedUpTo...])
        return String(decoding: result, as: UTF8.self)
    }
}
