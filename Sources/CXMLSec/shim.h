// libxml2, the XML Security Library (xmlsec1 with its OpenSSL engine) and zlib: Debian's
// libxmlsec1-dev (which brings libxml2-dev and zlib1g-dev). Swift sees libxml2's tree only;
// xmlsec is used from the CXMLSecurity C target, compiled with xmlsec's definitions.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zlib.h>
