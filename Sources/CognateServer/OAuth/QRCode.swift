/// A QR code (ISO/IEC 18004) of a short text: byte mode, error correction level M, versions 1–10
/// (up to 213 bytes — an `otpauth://` URI needs about 100), the mask with the lowest penalty.
/// Drawn as SVG for the hosted TOTP set-up page.
struct QRCode {
    let version: Int
    let mask: Int
    /// `modules[row][column]`, true for dark.
    let modules: [[Bool]]

    var size: Int { modules.count }

    /// Nil when the text is too long for version 10.
    init?(_ text: String) {
        let data = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.capacity($0) >= data.count }) else { return nil }
        let codewords = Self.codewords(data, version: version)
        var best: (penalty: Int, mask: Int, modules: [[Bool]])?
        for mask in 0..<8 {
            var grid = Grid(version: version)
            grid.placeData(codewords, mask: mask)
            grid.placeFormat(mask: mask)
            let penalty = grid.penalty()
            if best == nil || penalty < best!.penalty { best = (penalty, mask, grid.dark) }
        }
        self.version = version
        self.mask = best!.mask
        self.modules = best!.modules
    }

    /// The code as an SVG image (one unit per module, a quiet zone of four).
    func svg(pixelsPerModule: Int = 5) -> String {
        let side = size + 8
        var path = ""
        for (row, line) in modules.enumerated() {
            for (column, dark) in line.enumerated() where dark { path += "M\(column + 4) \(row + 4)h1v1h-1z" }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="QR code" width="\(side * pixelsPerModule)" \
            height="\(side * pixelsPerModule)" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" \
            data-version="\(version)" data-mask="\(mask)"><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path d="\(path)" fill="#000"/></svg>
            """
    }

    // MARK: - Codewords

    /// Level M: (error correction codewords per block, [(blocks, data codewords per block)]).
    static let blocks: [Int: (ec: Int, groups: [(count: Int, data: Int)])] = [
        1: (10, [(1, 16)]), 2: (16, [(1, 28)]), 3: (26, [(1, 44)]), 4: (18, [(2, 32)]), 5: (24, [(2, 43)]),
        6: (16, [(4, 27)]), 7: (18, [(4, 31)]), 8: (22, [(2, 38), (2, 39)]), 9: (22, [(3, 36), (2, 37)]),
        10: (26, [(4, 43), (1, 44)]),
    ]

    static func dataCodewords(_ version: Int) -> Int { blocks[version]!.groups.reduce(0) { $0 + $1.count * $1.data } }

    /// Bytes that fit: mode (4 bits), count (8 bits, 16 from version 10), 8 bits each.
    static func capacity(_ version: Int) -> Int { (dataCodewords(version) * 8 - 4 - (version < 10 ? 8 : 16)) / 8 }

    /// The final sequence: data and error correction codewords, interleaved by block.
    static func codewords(_ data: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) } }
        append(0b0100, 4)
        append(data.count, version < 10 ? 8 : 16)
        for byte in data { append(Int(byte), 8) }
        let capacityBits = dataCodewords(version) * 8
        append(0, min(4, capacityBits - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var bytes = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while bytes.count < dataCodewords(version) {
            bytes.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let layout = blocks[version]!
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(bytes[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, degree: layout.ec) }
        var result: [UInt8] = []
        for i in 0..<(dataBlocks.map(\.count).max() ?? 0) { for block in dataBlocks where i < block.count { result.append(block[i]) } }
        for i in 0..<layout.ec { for block in ecBlocks { result.append(block[i]) } }
        return result
    }

    // MARK: - The grid

    struct Grid {
        let version: Int
        let size: Int
        var dark: [[Bool]]
        var reserved: [[Bool]]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: Array(repeating: false, count: size), count: size)
            reserved = dark
            for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { placeFinder(row, column) }
            for i in 8..<(size - 8) {
                set(6, i, i % 2 == 0)
                set(i, 6, i % 2 == 0)
            }
            let centers = Self.alignmentCenters(version)
            let last = centers.count - 1
            for (i, row) in centers.enumerated() {
                for (j, column) in centers.enumerated() where !(i == 0 && j == 0 || i == 0 && j == last || i == last && j == 0) {
                    placeAlignment(row, column)
                }
            }
            set(4 * version + 9, 8, true)            // the dark module
            for i in 0..<9 {                           // format areas, filled later
                reserve(8, i)
                reserve(i, 8)
            }
            for i in 0..<8 {
                reserve(8, size - 1 - i)
                reserve(size - 1 - i, 8)
            }
            if version >= 7 { placeVersion() }
        }

        static func alignmentCenters(_ version: Int) -> [Int] {
            [1: [], 2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34], 7: [6, 22, 38], 8: [6, 24, 42],
             9: [6, 26, 46], 10: [6, 28, 50]][version]!
        }

        mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
            dark[row][column] = value
            reserved[row][column] = true
        }

        mutating func reserve(_ row: Int, _ column: Int) { reserved[row][column] = true }

        mutating func placeFinder(_ top: Int, _ left: Int) {
            for row in -1...7 {
                for column in -1...7 {
                    let r = top + row, c = left + column
                    guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                    let inside = (0...6).contains(row) && (0...6).contains(column)
                    let ring = row == 0 || row == 6 || column == 0 || column == 6
                    let core = (2...4).contains(row) && (2...4).contains(column)
                    set(r, c, inside && (ring || core))
                }
            }
        }

        mutating func placeAlignment(_ row: Int, _ column: Int) {
            for dr in -2...2 {
                for dc in -2...2 { set(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) }
            }
        }

        mutating func placeVersion() {
            var remainder = version
            for _ in 0..<12 { remainder = remainder << 1 ^ (remainder >> 11 & 1) * 0x1F25 }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let bit = bits >> i & 1 == 1
                set(size - 11 + i % 3, i / 3, bit)
                set(i / 3, size - 11 + i % 3, bit)
            }
        }

        /// Level M (00) and the mask, BCH-coded and masked with 0x5412, in both copies: around
        /// the top-left finder, and split between the other two.
        mutating func placeFormat(mask: Int) {
            let data = 0b00 << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = remainder << 1 ^ (remainder >> 9 & 1) * 0x537 }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ i: Int) -> Bool { bits >> i & 1 == 1 }
            for i in 0...5 { dark[i][8] = bit(i) }
            dark[7][8] = bit(6)
            dark[8][8] = bit(7)
            dark[8][7] = bit(8)
            for i in 9..<15 { dark[8][14 - i] = bit(i) }
            for i in 0..<8 { dark[8][size - 1 - i] = bit(i) }
            for i in 8..<15 { dark[size - 15 + i][8] = bit(i) }
            dark[size - 8][8] = true
        }

        /// Fills the free modules in the zigzag order, masked.
        mutating func placeData(_ codewords: [UInt8], mask: Int) {
            var bitIndex = 0
            let totalBits = codewords.count * 8
            var column = size - 1
            var upward = true
            while column > 0 {
                if column == 6 { column -= 1 }
                for step in 0..<size {
                    let row = upward ? size - 1 - step : step
                    for c in [column, column - 1] where !reserved[row][c] {
                        var bit = false
                        if bitIndex < totalBits { bit = codewords[bitIndex / 8] >> (7 - bitIndex % 8) & 1 == 1 }
                        bitIndex += 1
                        dark[row][c] = bit != Self.masked(mask, row, c)
                    }
                }
                upward.toggle()
                column -= 2
            }
        }

        static func masked(_ mask: Int, _ row: Int, _ column: Int) -> Bool {
            switch mask {
            case 0: return (row + column) % 2 == 0
            case 1: return row % 2 == 0
            case 2: return column % 3 == 0
            case 3: return (row + column) % 3 == 0
            case 4: return (row / 2 + column / 3) % 2 == 0
            case 5: return row * column % 2 + row * column % 3 == 0
            case 6: return (row * column % 2 + row * column % 3) % 2 == 0
            default: return ((row + column) % 2 + row * column % 3) % 2 == 0
            }
        }

        /// The standard's penalty: runs, 2×2 blocks, finder-like patterns, dark proportion.
        func penalty() -> Int {
            var score = 0
            for line in [dark, transposed()] {
                for row in line {
                    var run = 1
                    for i in 1..<size {
                        if row[i] == row[i - 1] {
                            run += 1
                        } else {
                            if run >= 5 { score += run - 2 }
                            run = 1
                        }
                    }
                    if run >= 5 { score += run - 2 }
                    let pattern: [Bool] = [true, false, true, true, true, false, true]
                    for i in 0...(size - 7) where Array(row[i..<i + 7]) == pattern {
                        let before = i >= 4 && row[(i - 4)..<i].allSatisfy { !$0 }
                        let after = i + 11 <= size && row[(i + 7)..<(i + 11)].allSatisfy { !$0 }
                        if before || after { score += 40 }
                    }
                }
            }
            for row in 0..<(size - 1) {
                for column in 0..<(size - 1) {
                    let color = dark[row][column]
                    if dark[row][column + 1] == color, dark[row + 1][column] == color, dark[row + 1][column + 1] == color { score += 3 }
                }
            }
            let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
            score += abs(darkCount * 20 - size * size * 10) / (size * size) * 10
            return score
        }

        func transposed() -> [[Bool]] {
            (0..<size).map { column in (0..<size).map { dark[$0][column] } }
        }
    }
}

/// Reed–Solomon error correction over GF(256) (polynomial 0x11D), as QR codes use it.
enum ReedSolomon {
    static let (exp, log): ([UInt8], [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for i in 0..<255 {
            exp[i] = UInt8(value)
            log[value] = i
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for i in 255..<512 { exp[i] = exp[i - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]]
    }

    /// The generator polynomial of `degree` (coefficients from the highest power, leading 1 left out).
    static func generator(_ degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for i in 0..<degree {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (j, coefficient) in polynomial.enumerated() {
                next[j] ^= coefficient
                next[j + 1] ^= multiply(coefficient, exp[i])
            }
            polynomial = next
        }
        return Array(polynomial.dropFirst())
    }

    /// The `degree` error correction codewords of `data`.
    static func remainder(_ data: [UInt8], degree: Int) -> [UInt8] {
        let divisor = generator(degree)
        var result = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for i in 0..<degree { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }
}
