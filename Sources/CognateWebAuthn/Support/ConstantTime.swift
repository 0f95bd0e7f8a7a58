/// Byte-string equality whose running time depends on the lengths only, not on where the
/// contents first differ: for comparing secrets such as challenges.
enum ConstantTime {
    static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
