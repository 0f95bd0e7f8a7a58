import ArgumentParser
import CognateProtocol

/// `--output table|json`, shared by the admin commands.
struct OutputOption: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @Option(name: .long, help: "table (readable, the default) or json (the operation's output).")
    var output: Format = .table

    /// Prints `document` as JSON, or the table `table` builds from it.
    func print(_ document: JSONValue, table: (JSONValue) -> Table) {
        switch output {
        case .json: Swift.print(document.prettyJSON)
        case .table: Swift.print(table(document).rendered, terminator: "")
        }
    }
}
