import ArgumentParser
import CognateProtocol

/// `--output table|json|id`, shared by the admin commands.
///
/// Contract: `id` prints only what names each item the command made, showed or changed, one per
/// line, for scripts (`POOL=$(cognate pools create shop --output id)`): a pool's or app client's
/// id, a user's or group's name.
struct OutputOption: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, id
    }

    @Option(name: .long, help: "table (readable, the default), json (the operation's output) or id (only the ids or names, one per line, for scripts).")
    var output: Format = .table

    /// Prints `document` as JSON, the `ids` (one per line), or the table `table` builds from it.
    func print(_ document: JSONValue, ids: [String?], table: (JSONValue) -> Table) {
        switch output {
        case .json: Swift.print(document.prettyJSON)
        case .id: for id in ids.compactMap({ $0 }) { Swift.print(id) }
        case .table: Swift.print(table(document).rendered, terminator: "")
        }
    }
}
