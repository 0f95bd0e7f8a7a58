/// An index of the devices still waiting for confirmation, by age, for the sweep that deletes
/// those never confirmed (every minute, `Housekeeping.sweepExpired`). Without it the sweep
/// read every device of every pool inside a write transaction: 0.23 s with a million devices,
/// every write of the node waiting behind it, to find none. Partial (`WHERE verifier IS
/// NULL`): a device leaves the index when it is confirmed, so the index holds only the few
/// announced and not yet confirmed.
enum Migration021UnconfirmedDeviceIndex {
    static let migration = Migration(version: 21, name: "unconfirmed_device_index", statements: [
        "CREATE INDEX devices_unconfirmed_by_age ON devices (created_at) WHERE verifier IS NULL",
    ])
}
