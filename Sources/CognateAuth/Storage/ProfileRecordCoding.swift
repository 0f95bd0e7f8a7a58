import Foundation

/// How stores that keep records as bytes encode them: JSON with ISO 8601 dates (one format
/// for ``FileTokenStore`` and ``KeychainTokenStore``).
enum ProfileRecordCoding {
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
