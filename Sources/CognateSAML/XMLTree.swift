import CXMLSecurity
import Foundation

/// A parsed XML document (libxml2), freed with its last reference. Parsing never reads the
/// network, substitutes no entities and refuses document type declarations.
final class XMLTree: @unchecked Sendable {
    let document: OpaquePointer

    init?(_ data: Data) {
        guard !data.isEmpty, data.count < Int(Int32.max) else { return nil }
        let parsed = data.withUnsafeBytes { bytes in
            cognate_xml_parse(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        guard let parsed else { return nil }
        document = parsed
    }

    deinit { cognate_xml_free(document) }

    var root: XMLNode? { cognate_xml_root(document).map { XMLNode(node: $0, tree: self) } }

    /// Registers the `ID` attributes as XML IDs; refused when one is empty or repeated, or when
    /// the document declares too many namespaces.
    func registerIdentifiers() throws {
        switch cognate_xml_register_ids(document) {
        case 0: return
        case -2: throw SAMLError("The SAML document declares too many namespaces.")
        default: throw SAMLError("The SAML document repeats an ID.")
        }
    }
}

/// An element of an `XMLTree` (kept alive by it).
struct XMLNode {
    let node: OpaquePointer
    let tree: XMLTree

    var localName: String { cognate_xml_name(node).map { String(cString: $0) } ?? "" }
    var namespace: String? { cognate_xml_namespace(node).map { String(cString: $0) } }

    func isElement(_ name: String, in namespace: String) -> Bool { localName == name && self.namespace == namespace }

    /// The child elements, in order.
    var elements: [XMLNode] {
        var found: [XMLNode] = []
        var cursor = cognate_xml_first_element(node)
        while let current = cursor {
            found.append(XMLNode(node: current, tree: tree))
            cursor = cognate_xml_next_element(current)
        }
        return found
    }

    func children(_ name: String, in namespace: String) -> [XMLNode] { elements.filter { $0.isElement(name, in: namespace) } }
    func child(_ name: String, in namespace: String) -> XMLNode? { elements.first { $0.isElement(name, in: namespace) } }

    /// The element's text (its descendants' text), whitespace at the ends trimmed.
    var text: String {
        guard let raw = cognate_xml_text(node) else { return "" }
        defer { free(raw) }
        return String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The attribute `name` (no namespace).
    func attribute(_ name: String) -> String? {
        guard let raw = cognate_xml_attribute(node, name) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }
}

enum SAMLNamespace {
    static let protocol_ = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let metadata = "urn:oasis:names:tc:SAML:2.0:metadata"
    static let signature = "http://www.w3.org/2000/09/xmldsig#"
    static let encryption = "http://www.w3.org/2001/04/xmlenc#"
}

enum SAMLBinding {
    static let redirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    static let post = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
}
