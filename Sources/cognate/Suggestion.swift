/// "Did you mean …?" for a command, option or configuration key typed wrong.
enum Suggestion {
    /// The known word nearest to `typed`, nil when none is near: the one with the fewest edits
    /// (insertions, deletions, substitutions), allowed 1 edit for words of up to 4 characters,
    /// 2 up to 8, 3 beyond (`pool` → `pools`, `--poool` → `--pool`, `smtp.hots` → `smtp.host`).
    /// Case is ignored, and so is `_` against `.` or `-` (`rate_limit_messages` is
    /// `rate_limit.messages`).
    static func nearest(to typed: String, among known: [String]) -> String? {
        let word = normalized(typed)
        let allowed = word.count <= 4 ? 1 : word.count <= 8 ? 2 : 3
        let ranked = known.map { (candidate: $0, edits: distance(word, normalized($0))) }
            .filter { $0.edits <= allowed }
            .min { $0.edits < $1.edits }
        return ranked?.candidate
    }

    /// The sentence fragment for `nearest(to:among:)`: "; did you mean 'pools'?" or "".
    static func didYouMean(_ typed: String, among known: [String]) -> String {
        nearest(to: typed, among: known).map { "; did you mean '\($0)'?" } ?? ""
    }

    private static func normalized(_ word: String) -> [Character] {
        Array(word.lowercased().map { $0 == "." || $0 == "-" ? "_" : $0 })
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
