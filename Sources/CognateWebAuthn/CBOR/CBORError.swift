/// Why a byte string is not an acceptable CBOR data item. `offset` is the byte where the
/// problem was found, counted from the start of the input.
public enum CBORError: Error, Equatable, Sendable {
    /// The input ended inside an item.
    case truncated(offset: Int)
    /// Bytes follow the (first, complete) item where only that item was expected.
    case trailingBytes(offset: Int)
    /// Additional information 31 (indefinite length or "break"): WebAuthn uses definite lengths only.
    case indefiniteLength(offset: Int)
    /// Additional information 28-30, reserved by RFC 8949.
    case reservedAdditionalInformation(offset: Int)
    /// An argument written in more bytes than its value needs (RFC 8949 §4.2.1 preferred serialization).
    case nonShortestEncoding(offset: Int)
    /// A tag (major type 6): WebAuthn's structures carry none.
    case unsupportedTag(offset: Int)
    /// A float, `undefined` or another simple value besides false, true and null.
    case unsupportedSimpleValue(offset: Int)
    /// A text string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A map with two equal keys.
    case duplicateMapKey(offset: Int)
    /// Arrays and maps nested deeper than the decoder's limit.
    case nestingTooDeep(offset: Int)
    /// The input is larger than the decoder's limit.
    case inputTooLarge(size: Int, limit: Int)
    /// A length or count larger than what remains of the input, or than the platform can index.
    case lengthTooLarge(offset: Int)
}
