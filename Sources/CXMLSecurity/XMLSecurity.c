#include "CXMLSecurity.h"

#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/valid.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlenc.h>
#include <xmlsec/errors.h>
#include <xmlsec/crypto.h>
#include <zlib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

static pthread_once_t started = PTHREAD_ONCE_INIT;
static int startResult = -1;

static void quietXMLSec(const char *file, int line, const char *func, const char *errorObject,
                        const char *errorSubject, int reason, const char *msg) {
    (void)file; (void)line; (void)func; (void)errorObject; (void)errorSubject; (void)reason; (void)msg;
}

static void quietXML(void *context, const char *message, ...) { (void)context; (void)message; }

static void start(void) {
    xmlInitParser();
    xmlSetGenericErrorFunc(NULL, quietXML);
    if (xmlSecInit() < 0) return;
    if (xmlSecCheckVersionExt(XMLSEC_VERSION_MAJOR, XMLSEC_VERSION_MINOR, XMLSEC_VERSION_SUBMINOR,
                              xmlSecCheckVersionABICompatible) != 1) return;
    if (xmlSecCryptoAppInit(NULL) < 0) return;
    if (xmlSecCryptoInit() < 0) return;
    xmlSecErrorsSetCallback(quietXMLSec);
    startResult = 0;
}

int cognate_xmlsec_start(void) {
    pthread_once(&started, start);
    return startResult;
}

cognate_xml_document *cognate_xml_parse(const char *bytes, int length) {
    if (cognate_xmlsec_start() < 0 || bytes == NULL || length <= 0) return NULL;
    xmlSetGenericErrorFunc(NULL, quietXML);  // per thread in libxml2
    xmlDocPtr doc = xmlReadMemory(bytes, length, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc == NULL) return NULL;
    if (doc->intSubset != NULL || doc->extSubset != NULL || xmlDocGetRootElement(doc) == NULL) {
        xmlFreeDoc(doc);
        return NULL;
    }
    return (cognate_xml_document *)doc;
}

void cognate_xml_free(cognate_xml_document *doc) {
    if (doc != NULL) xmlFreeDoc((xmlDocPtr)doc);
}

cognate_xml_node *cognate_xml_root(cognate_xml_document *doc) {
    return doc == NULL ? NULL : (cognate_xml_node *)xmlDocGetRootElement((xmlDocPtr)doc);
}

static xmlNodePtr elementFrom(xmlNodePtr node) {
    while (node != NULL && node->type != XML_ELEMENT_NODE) node = node->next;
    return node;
}

cognate_xml_node *cognate_xml_first_element(cognate_xml_node *node) {
    return node == NULL ? NULL : (cognate_xml_node *)elementFrom(((xmlNodePtr)node)->children);
}

cognate_xml_node *cognate_xml_next_element(cognate_xml_node *node) {
    return node == NULL ? NULL : (cognate_xml_node *)elementFrom(((xmlNodePtr)node)->next);
}

const char *cognate_xml_name(cognate_xml_node *node) {
    return node == NULL ? NULL : (const char *)((xmlNodePtr)node)->name;
}

const char *cognate_xml_namespace(cognate_xml_node *node) {
    xmlNodePtr element = (xmlNodePtr)node;
    return element == NULL || element->ns == NULL ? NULL : (const char *)element->ns->href;
}

/// Namespace declarations a document may make in all: SAML documents make a handful; many make
/// inclusive canonicalization quadratic.
#define MAX_NAMESPACE_DECLARATIONS 64

static int registerIds(xmlDocPtr doc, xmlNodePtr node, int *namespaces) {
    for (xmlNodePtr cur = node; cur != NULL; cur = cur->next) {
        if (cur->type != XML_ELEMENT_NODE) continue;
        for (xmlNsPtr ns = cur->nsDef; ns != NULL; ns = ns->next) {
            if (++*namespaces > MAX_NAMESPACE_DECLARATIONS) return -2;
        }
        xmlAttrPtr attr = xmlHasNsProp(cur, BAD_CAST "ID", NULL);
        if (attr != NULL) {
            xmlChar *value = xmlNodeListGetString(doc, attr->children, 1);
            if (value == NULL || value[0] == 0) { xmlFree(value); return -1; }
            xmlAttrPtr known = xmlGetID(doc, value);
            if (known != NULL && known != attr) { xmlFree(value); return -1; }
            if (known == NULL && xmlAddID(NULL, doc, value, attr) == NULL) { xmlFree(value); return -1; }
            xmlFree(value);
        }
        int nested = registerIds(doc, cur->children, namespaces);
        if (nested < 0) return nested;
    }
    return 0;
}

int cognate_xml_register_ids(cognate_xml_document *document) {
    xmlDocPtr doc = (xmlDocPtr)document;
    if (doc == NULL) return -1;
    int namespaces = 0;
    return registerIds(doc, xmlDocGetRootElement(doc), &namespaces);
}

static int enableSAMLTransforms(xmlSecDSigCtxPtr ctx) {
    xmlSecTransformId references[] = {
        xmlSecTransformEnvelopedId, xmlSecTransformExclC14NId, xmlSecTransformExclC14NWithCommentsId,
        xmlSecTransformSha1Id, xmlSecTransformSha256Id, xmlSecTransformSha384Id, xmlSecTransformSha512Id,
    };
    xmlSecTransformId signatures[] = {
        xmlSecTransformExclC14NId, xmlSecTransformExclC14NWithCommentsId,
        xmlSecTransformInclC14NId, xmlSecTransformInclC14NWithCommentsId,
        xmlSecTransformRsaSha1Id, xmlSecTransformRsaSha256Id, xmlSecTransformRsaSha384Id, xmlSecTransformRsaSha512Id,
        xmlSecTransformEcdsaSha256Id, xmlSecTransformEcdsaSha384Id, xmlSecTransformEcdsaSha512Id,
    };
    for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++) {
        if (xmlSecDSigCtxEnableReferenceTransform(ctx, references[i]) < 0) return -1;
    }
    for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++) {
        if (xmlSecDSigCtxEnableSignatureTransform(ctx, signatures[i]) < 0) return -1;
    }
    return 0;
}

static const char *const DSIG = "http://www.w3.org/2000/09/xmldsig#";
static const char *const XMLENC = "http://www.w3.org/2001/04/xmlenc#";

static int isElement(xmlNodePtr node, const char *name, const char *ns) {
    return node != NULL && node->type == XML_ELEMENT_NODE && xmlStrEqual(node->name, BAD_CAST name) &&
        node->ns != NULL && xmlStrEqual(node->ns->href, BAD_CAST ns);
}

static xmlNodePtr firstElement(xmlNodePtr node) {
    while (node != NULL && node->type != XML_ELEMENT_NODE) node = node->next;
    return node;
}

static int countChildren(xmlNodePtr parent, const char *name, const char *ns, xmlNodePtr *found) {
    int count = 0;
    for (xmlNodePtr cur = firstElement(parent->children); cur != NULL; cur = firstElement(cur->next)) {
        if (isElement(cur, name, ns)) {
            if (count++ == 0 && found != NULL) *found = cur;
        }
    }
    return count;
}

static int algorithmIn(xmlNodePtr node, const char *const *allowed) {
    xmlChar *algorithm = xmlGetNoNsProp(node, BAD_CAST "Algorithm");
    int ok = 0;
    for (const char *const *candidate = allowed; algorithm != NULL && *candidate != NULL; candidate++) {
        if (xmlStrEqual(algorithm, BAD_CAST *candidate)) ok = 1;
    }
    xmlFree(algorithm);
    return ok;
}

/// The shape SAML's profile gives an enveloped signature (SAML core 5.4), checked before any
/// digest is computed: one Reference, to `#parentId`, with at most the enveloped-signature and
/// an exclusive canonicalization transform. Anything else costs nothing to refuse.
static int hasSAMLSignatureShape(xmlNodePtr signature, const xmlChar *parentId) {
    xmlNodePtr signedInfo = NULL;
    if (countChildren(signature, "SignedInfo", DSIG, &signedInfo) != 1) return 0;
    xmlNodePtr reference = NULL;
    if (countChildren(signedInfo, "Reference", DSIG, &reference) != 1) return 0;
    xmlChar *uri = xmlGetNoNsProp(reference, BAD_CAST "URI");
    int sameElement = uri != NULL && uri[0] == '#' && xmlStrEqual(uri + 1, parentId);
    xmlFree(uri);
    if (!sameElement) return 0;
    xmlNodePtr transforms = NULL;
    int transformLists = countChildren(reference, "Transforms", DSIG, &transforms);
    if (transformLists > 1) return 0;
    if (transformLists == 1) {
        static const char *const allowed[] = {
            "http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#",
            "http://www.w3.org/2001/10/xml-exc-c14n#WithComments", NULL,
        };
        int count = 0;
        for (xmlNodePtr cur = firstElement(transforms->children); cur != NULL; cur = firstElement(cur->next)) {
            if (!isElement(cur, "Transform", DSIG) || !algorithmIn(cur, allowed)) return 0;
            if (++count > 2) return 0;
        }
    }
    return 1;
}

int cognate_xmlsec_verify_enveloped(cognate_xml_node *signatureNode, const unsigned char *certificate, int length) {
    xmlNodePtr signature = (xmlNodePtr)signatureNode;
    if (cognate_xmlsec_start() < 0 || signature == NULL || certificate == NULL || length <= 0) return -1;
    if (!xmlSecCheckNodeName(signature, xmlSecNodeSignature, xmlSecDSigNs)) return -1;
    xmlNodePtr parent = signature->parent;
    if (parent == NULL || parent->type != XML_ELEMENT_NODE) return -1;
    xmlChar *parentId = xmlGetNoNsProp(parent, BAD_CAST "ID");
    if (parentId == NULL) return 0;
    if (!hasSAMLSignatureShape(signature, parentId)) {
        xmlFree(parentId);
        return 0;
    }

    int result = -1;
    xmlSecDSigCtxPtr ctx = NULL;
    xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory(certificate, (xmlSecSize)length, xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
    if (key == NULL) goto done;
    ctx = xmlSecDSigCtxCreate(NULL);
    if (ctx == NULL) goto done;
    ctx->signKey = key;  // owned by the context from here
    key = NULL;
    ctx->enabledReferenceUris = xmlSecTransformUriTypeSameDocument;
    ctx->keyInfoReadCtx.retrievalMethodCtx.enabledUris = xmlSecTransformUriTypeNone;
    if (enableSAMLTransforms(ctx) < 0) goto done;
    result = 0;
    if (xmlSecDSigCtxVerify(ctx, signature) < 0) goto done;
    if (ctx->status != xmlSecDSigStatusSucceeded) goto done;
    if (xmlSecPtrListGetSize(&ctx->signedInfoReferences) != 1) goto done;
    xmlSecDSigReferenceCtxPtr reference = (xmlSecDSigReferenceCtxPtr)xmlSecPtrListGetItem(&ctx->signedInfoReferences, 0);
    if (reference == NULL || reference->uri == NULL || reference->status != xmlSecDSigStatusSucceeded) goto done;
    if (reference->uri[0] != '#' || xmlStrcmp(reference->uri + 1, parentId) != 0) goto done;
    xmlAttrPtr target = xmlGetID(parent->doc, parentId);
    if (target == NULL || target->parent != parent) goto done;
    result = 1;
done:
    if (key != NULL) xmlSecKeyDestroy(key);
    if (ctx != NULL) xmlSecDSigCtxDestroy(ctx);
    xmlFree(parentId);
    return result;
}

static const char *const BLOCK_CIPHERS[] = {
    "http://www.w3.org/2001/04/xmlenc#aes128-cbc", "http://www.w3.org/2001/04/xmlenc#aes192-cbc",
    "http://www.w3.org/2001/04/xmlenc#aes256-cbc", "http://www.w3.org/2009/xmlenc11#aes128-gcm",
    "http://www.w3.org/2009/xmlenc11#aes192-gcm", "http://www.w3.org/2009/xmlenc11#aes256-gcm", NULL,
};
static const char *const KEY_TRANSPORTS[] = {
    "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p", "http://www.w3.org/2009/xmlenc11#rsa-oaep", NULL,
};

/// Brings `encryptedData` into the one shape decrypted here: AES (CBC or GCM) content, its key in
/// one xenc:EncryptedKey by RSA-OAEP, inside ds:KeyInfo — an EncryptedKey given as the
/// EncryptedData's sibling (referenced by a RetrievalMethod) is moved there. 0, or -1 when the
/// shape or an algorithm is another.
static int normalizeEncryptedData(xmlNodePtr encryptedData) {
    xmlNodePtr method = NULL;
    if (countChildren(encryptedData, "EncryptionMethod", XMLENC, &method) != 1 || !algorithmIn(method, BLOCK_CIPHERS)) return -1;
    xmlNodePtr keyInfo = NULL;
    if (countChildren(encryptedData, "KeyInfo", DSIG, &keyInfo) != 1) return -1;
    xmlNodePtr child = firstElement(keyInfo->children);
    if (child == NULL || firstElement(child->next) != NULL) return -1;
    xmlNodePtr encryptedKey = NULL;
    if (isElement(child, "EncryptedKey", XMLENC)) {
        encryptedKey = child;
    } else if (isElement(child, "RetrievalMethod", DSIG) && encryptedData->parent != NULL) {
        if (countChildren(encryptedData->parent, "EncryptedKey", XMLENC, &encryptedKey) != 1) return -1;
        xmlUnlinkNode(child);
        xmlFreeNode(child);
        xmlUnlinkNode(encryptedKey);
        if (xmlAddChild(keyInfo, encryptedKey) == NULL) return -1;
    } else {
        return -1;
    }
    xmlNodePtr transport = NULL;
    if (countChildren(encryptedKey, "EncryptionMethod", XMLENC, &transport) != 1 || !algorithmIn(transport, KEY_TRANSPORTS)) return -1;
    xmlNodePtr keyInfoOfKey = NULL;
    if (countChildren(encryptedKey, "KeyInfo", DSIG, &keyInfoOfKey) > 1) return -1;
    if (keyInfoOfKey != NULL && (countChildren(keyInfoOfKey, "EncryptedKey", XMLENC, NULL) > 0 ||
                                 countChildren(keyInfoOfKey, "RetrievalMethod", DSIG, NULL) > 0)) {
        return -1;
    }
    return 0;
}

int cognate_xmlsec_decrypt(cognate_xml_node *encryptedNode, const unsigned char *keyPEM, int length) {
    xmlNodePtr encryptedData = (xmlNodePtr)encryptedNode;
    if (cognate_xmlsec_start() < 0 || encryptedData == NULL || keyPEM == NULL || length <= 0) return -1;
    if (!xmlSecCheckNodeName(encryptedData, xmlSecNodeEncryptedData, xmlSecEncNs)) return -1;
    if (normalizeEncryptedData(encryptedData) < 0) return -1;
    int result = -1;
    xmlSecEncCtxPtr ctx = NULL;
    xmlSecKeysMngrPtr manager = xmlSecKeysMngrCreate();
    if (manager == NULL || xmlSecCryptoAppDefaultKeysMngrInit(manager) < 0) goto done;
    xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory(keyPEM, (xmlSecSize)length, xmlSecKeyDataFormatPem, NULL, NULL, NULL);
    if (key == NULL) goto done;
    if (xmlSecCryptoAppDefaultKeysMngrAdoptKey(manager, key) < 0) { xmlSecKeyDestroy(key); goto done; }
    ctx = xmlSecEncCtxCreate(manager);
    if (ctx == NULL) goto done;
    ctx->transformCtx.enabledUris = xmlSecTransformUriTypeNone;
    ctx->keyInfoReadCtx.retrievalMethodCtx.enabledUris = xmlSecTransformUriTypeNone;
    ctx->keyInfoReadCtx.maxEncryptedKeyLevel = 1;
    // Only an EncryptedKey gives the content key: never a key written into the document.
    if (xmlSecPtrListAdd(&(ctx->keyInfoReadCtx.enabledKeyData), (void *)xmlSecKeyDataEncryptedKeyId) < 0) goto done;
    if (xmlSecEncCtxDecrypt(ctx, encryptedData) < 0 || ctx->result == NULL || !ctx->resultReplaced) goto done;
    result = 0;
done:
    if (ctx != NULL) xmlSecEncCtxDestroy(ctx);
    if (manager != NULL) xmlSecKeysMngrDestroy(manager);
    return result;
}

unsigned char *cognate_deflate_raw(const unsigned char *input, int length, int *outLength) {
    if (input == NULL || length < 0 || outLength == NULL) return NULL;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    uLong bound = deflateBound(&stream, (uLong)length);
    unsigned char *out = malloc(bound + 16);
    if (out == NULL) { deflateEnd(&stream); return NULL; }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = out;
    stream.avail_out = (uInt)(bound + 16);
    int status = deflate(&stream, Z_FINISH);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) { free(out); return NULL; }
    *outLength = (int)stream.total_out;
    return out;
}

unsigned char *cognate_inflate_raw(const unsigned char *input, int length, int limit, int *outLength) {
    if (input == NULL || length < 0 || limit <= 0 || outLength == NULL) return NULL;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, -15) != Z_OK) return NULL;
    unsigned char *out = malloc((size_t)limit + 1);
    if (out == NULL) { inflateEnd(&stream); return NULL; }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = out;
    stream.avail_out = (uInt)limit + 1;
    int status = inflate(&stream, Z_FINISH);
    inflateEnd(&stream);
    if (status != Z_STREAM_END || stream.total_out > (uLong)limit) { free(out); return NULL; }
    *outLength = (int)stream.total_out;
    return out;
}

char *cognate_xml_text(cognate_xml_node *node) {
    if (node == NULL) return NULL;
    xmlChar *content = xmlNodeGetContent((xmlNodePtr)node);
    if (content == NULL) return NULL;
    char *copy = strdup((const char *)content);
    xmlFree(content);
    return copy;
}

char *cognate_xml_attribute(cognate_xml_node *node, const char *name) {
    if (node == NULL || name == NULL) return NULL;
    xmlChar *value = xmlGetNoNsProp((xmlNodePtr)node, BAD_CAST name);
    if (value == NULL) return NULL;
    char *copy = strdup((const char *)value);
    xmlFree(value);
    return copy;
}

static X509 *readCertificate(const unsigned char *certificate, int length) {
    BIO *bio = BIO_new_mem_buf(certificate, length);
    if (bio == NULL) return NULL;
    X509 *x509 = PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return x509;
}

int cognate_verify_with_certificate(const unsigned char *certificate, int certificateLength, const char *digest,
                                    const unsigned char *data, int dataLength,
                                    const unsigned char *signature, int signatureLength) {
    if (certificate == NULL || certificateLength <= 0 || digest == NULL || data == NULL || signature == NULL) return -1;
    const EVP_MD *md = EVP_get_digestbyname(digest);
    if (md == NULL) return -1;
    X509 *x509 = readCertificate(certificate, certificateLength);
    if (x509 == NULL) return -1;
    EVP_PKEY *key = X509_get_pubkey(x509);
    X509_free(x509);
    if (key == NULL) return -1;
    int result = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, md, NULL, key) == 1 &&
        EVP_DigestVerify(ctx, signature, (size_t)signatureLength, data, (size_t)dataLength) == 1) {
        result = 1;
    }
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return result;
}

long long cognate_certificate_not_after(const unsigned char *certificate, int length) {
    if (certificate == NULL || length <= 0) return -1;
    X509 *x509 = readCertificate(certificate, length);
    if (x509 == NULL) return -1;
    struct tm when;
    long long result = -1;
    if (ASN1_TIME_to_tm(X509_get0_notAfter(x509), &when) == 1) result = (long long)timegm(&when);
    X509_free(x509);
    return result;
}
