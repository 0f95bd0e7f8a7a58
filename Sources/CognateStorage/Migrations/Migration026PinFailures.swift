/// Wrong PINs counted on the device itself: the count lives as long as the PIN does (it is
/// reset by a right PIN or a new registration), where a counter kept apart would be swept
/// with counters of stale windows and start the count afresh.
enum Migration026PinFailures {
    static let migration = Migration(version: 26, name: "pin_failures", statements: [
        "ALTER TABLE devices ADD COLUMN pin_failures INTEGER NOT NULL DEFAULT 0",
    ])
}
