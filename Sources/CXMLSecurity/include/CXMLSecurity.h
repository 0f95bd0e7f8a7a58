#ifndef COGNATE_XML_SECURITY_H
#define COGNATE_XML_SECURITY_H

// XML signatures and encryption for SAML, through libxml2 and the XML Security Library
// (xmlsec1 with OpenSSL). Nothing here canonicalizes or hashes by hand: xmlsec does.

// Opaque: libxml2's headers stay out of Swift (they bring the system's ICU, which clashes with
// Foundation's).
typedef struct cognate_xml_document cognate_xml_document;
typedef struct cognate_xml_node cognate_xml_node;

/// Starts libxml2, xmlsec and its OpenSSL engine once per process, with their error printing
/// silenced (callers report failures themselves). 0, or -1 when the library cannot start.
int cognate_xmlsec_start(void);

/// Parses `bytes` as an XML document without the network, without substituting entities, and
/// refuses any document type declaration (no DTD: no entity tricks). NULL when malformed or
/// refused. Free with cognate_xml_free.
cognate_xml_document *cognate_xml_parse(const char *bytes, int length);

/// Registers every element's `ID` attribute (SAML's identifier attribute, no namespace) as an XML
/// ID, so that a signature's `#ID` reference resolves to it. -1 when an ID is empty or two
/// elements share one (a reference could then point at either); -2 when the document declares
/// more than 64 namespaces (they make canonicalization costly).
int cognate_xml_register_ids(cognate_xml_document *doc);

void cognate_xml_free(cognate_xml_document *doc);

/// The root element; NULL when none.
cognate_xml_node *cognate_xml_root(cognate_xml_document *doc);

/// The first child element of `node`, and the next sibling element: NULL when none.
cognate_xml_node *cognate_xml_first_element(cognate_xml_node *node);
cognate_xml_node *cognate_xml_next_element(cognate_xml_node *node);

/// The element's local name, and its namespace URI (NULL when none); owned by the document.
const char *cognate_xml_name(cognate_xml_node *node);
const char *cognate_xml_namespace(cognate_xml_node *node);

/// Verifies `signature`, a ds:Signature that is a direct child of the element it signs, with the
/// public key of the PEM certificate `certificate`. Valid (1) only when the signature value and
/// digests check, there is exactly one reference, and it names the parent by `#<its ID>`. The
/// shape SAML's profile gives is checked before any digest is computed: at most the enveloped
/// signature and exclusive canonicalization as the reference's transforms; RSA and ECDSA with
/// SHA-1 or SHA-2; no reference leaves the document; keys in the document are ignored.
/// 0 when not valid, -1 when the key cannot be read or the node is not a signature.
int cognate_xmlsec_verify_enveloped(cognate_xml_node * signature, const unsigned char *certificate, int length);

/// Decrypts `encryptedData` (xenc:EncryptedData whose key comes in an xenc:EncryptedKey for the
/// RSA private key `key`, PEM) in place: the element is replaced in its document by what it
/// encrypted. Only AES (CBC, GCM) content with its key by RSA-OAEP, in one EncryptedKey (inside
/// the KeyInfo, or beside the EncryptedData); no key written in the document, nothing outside it
/// read. 0, or -1 when it cannot be decrypted (one answer for every reason).
int cognate_xmlsec_decrypt(cognate_xml_node * encryptedData, const unsigned char *key, int length);

/// Raw DEFLATE (RFC 1951, as SAML's redirect binding uses it) of `input`: a buffer to free(),
/// its length in `*outLength`; NULL on failure.
unsigned char *cognate_deflate_raw(const unsigned char *input, int length, int *outLength);

/// Raw INFLATE of `input`, refusing more than `limit` bytes out: a buffer to free(), its length
/// in `*outLength`; NULL when malformed or too large.
unsigned char *cognate_inflate_raw(const unsigned char *input, int length, int limit, int *outLength);

/// The text content of `node` (its descendants' text, concatenated) as a C string to free();
/// NULL when none.
char *cognate_xml_text(cognate_xml_node * node);

/// The value of `node`'s attribute `name` (no namespace) as a C string to free(); NULL when absent.
char *cognate_xml_attribute(cognate_xml_node * node, const char *name);

/// Verifies `signature` over `data` with the public key of the PEM certificate `certificate`:
/// RSA PKCS #1 v1.5 with the digest `digest` ("sha1", "sha256", "sha384", "sha512"), as SAML's
/// redirect binding signs its query. 1 valid, 0 not, -1 when the certificate cannot be read.
int cognate_verify_with_certificate(const unsigned char *certificate, int certificateLength, const char *digest,
                                    const unsigned char *data, int dataLength,
                                    const unsigned char *signature, int signatureLength);

/// The notAfter of the PEM certificate, in seconds since 1970; -1 when it cannot be read.
long long cognate_certificate_not_after(const unsigned char *certificate, int length);

#endif
