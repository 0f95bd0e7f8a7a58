"""A SAML 2.0 identity provider for the compat suites, made of pysaml2's IdP (`saml2.server.Server`,
which signs and encrypts with the xmlsec1 program): it reads Cognate's AuthnRequests and
LogoutRequests from the redirect binding (checking their signatures with the pool's signing
certificate), and makes signed (optionally encrypted) responses for the test to post as a
provider's page would. Its metadata is served over HTTP for `MetadataURL`."""
import base64
import contextlib
import html
import datetime
import functools
import shutil
import tempfile
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
import saml2.entity
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import entity_descriptor
from saml2.saml import NAMEID_FORMAT_PERSISTENT, NameID
from saml2.server import Server
from saml2.sigver import verify_redirect_signature

from helpers import QuietHandler, local_http_server

XMLSEC = shutil.which("xmlsec1")
AES256_CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"
AES128_GCM = "http://www.w3.org/2009/xmlenc11#aes128-gcm"
TRIPLE_DES = "http://www.w3.org/2001/04/xmlenc#tripledes-cbc"
RSA_OAEP = "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"
RSA_1_5 = "http://www.w3.org/2001/04/xmlenc#rsa-1_5"


SESSION_KEYS = {AES256_CBC: "aes-256", AES128_GCM: "aes-128", TRIPLE_DES: "des-192"}


@contextlib.contextmanager
def encryption(server, cipher, key_transport):
    """pysaml2 encrypts with Triple DES unless told otherwise, and has no option for it: its
    template function and the session key it asks xmlsec1 for are set for the duration."""
    original = saml2.entity.pre_encryption_part
    saml2.entity.pre_encryption_part = functools.partial(original, msg_enc=cipher, key_enc=key_transport)
    server.sec.encrypt_assertion = functools.partial(server.sec.encrypt_assertion, key_type=SESSION_KEYS[cipher])
    try:
        yield
    finally:
        saml2.entity.pre_encryption_part = original


def key_and_certificate(common_name, days=365):
    """A new RSA key (PEM) and a self-signed certificate for it (PEM)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=days)).sign(key, hashes.SHA256()))
    return (key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()).decode(),
            certificate.public_bytes(serialization.Encoding.PEM).decode())


def pem_of_base64_der(der):
    body = "\n".join(der[i:i + 64] for i in range(0, len(der), 64))
    return f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n"


def bare_certificate(pem):
    return "".join(line for line in pem.strip().splitlines() if "CERTIFICATE" not in line)


class SAMLIdentityProvider:
    """One IdP: `url` serves `/metadata`; `sso` and `slo` are where Cognate sends browsers."""

    def __init__(self):
        self.directory = Path(tempfile.mkdtemp(prefix="cognate-saml-idp-"))
        self.key, self.certificate = key_and_certificate("cognate-test-idp")
        (self.directory / "idp.key").write_text(self.key)
        (self.directory / "idp.crt").write_text(self.certificate)
        idp = self

        class Handler(QuietHandler):
            def answer(self, status, content_type, text):
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/sso":   # the provider's sign-in page, for a browser
                    query = {k: v[0] for k, v in parse_qs(url.query).items()}
                    hidden = "".join(f'<input type="hidden" name="{k}" value="{html.escape(query.get(k, ""))}">'
                                     for k in ("SAMLRequest", "RelayState"))
                    self.answer(200, "text/html", "<!doctype html><title>Corp sign-in</title><h1>Corp sign-in</h1>"
                                f'<form method="post" action="/sso/login">{hidden}'
                                '<input name="username"><button type="submit">Sign in</button></form>')
                    return
                self.answer(200, "application/samlmetadata+xml", idp.metadata())

            def do_POST(self):
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()).items()}
                request = idp.read_request({"SAMLRequest": form["SAMLRequest"]})
                user = form["username"]
                response = idp.response(request.issuer.text, request.assertion_consumer_service_url, user,
                                        {"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress":
                                         [f"{user}@corp.example.com"]}, in_response_to=request.id)
                # The provider's page posts the response to the service provider, as the POST binding does.
                fields = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">'
                                 for k, v in (("SAMLResponse", response), ("RelayState", form.get("RelayState", ""))))
                self.answer(200, "text/html", "<!doctype html><title>Signing in</title>"
                            f'<form method="post" action="{html.escape(request.assertion_consumer_service_url)}">{fields}'
                            '<button type="submit">Continue</button></form>'
                            "<script>document.forms[0].submit()</script>")

        self.httpd, self.url = local_http_server(Handler)
        self.entity_id = self.url + "/metadata"
        # The browser reaches the provider as localhost: another site than 127.0.0.1, so its
        # post to the service provider is cross-site, as a real provider's is.
        self.sso = self.url.replace("127.0.0.1", "localhost") + "/sso"
        self.slo = self.url.replace("127.0.0.1", "localhost") + "/slo"
        self.service_providers = []

    def stop(self):
        self.httpd.shutdown()
        shutil.rmtree(self.directory, ignore_errors=True)

    def config(self):
        configuration = IdPConfig()
        configuration.load({
            "entityid": self.entity_id,
            "xmlsec_binary": XMLSEC,
            "key_file": str(self.directory / "idp.key"),
            "cert_file": str(self.directory / "idp.crt"),
            "metadata": {"inline": self.service_providers},
            "allow_unknown_attributes": True,
            "service": {"idp": {
                "endpoints": {"single_sign_on_service": [(self.sso, BINDING_HTTP_REDIRECT)],
                              "single_logout_service": [(self.slo, BINDING_HTTP_REDIRECT)]},
                "name_id_format": [NAMEID_FORMAT_PERSISTENT],
                "policy": {"default": {"lifetime": {"minutes": 5}, "attribute_restrictions": None,
                                       "name_form": "urn:oasis:names:tc:SAML:2.0:attrname-format:uri"}},
            }},
        })
        return configuration

    def metadata(self):
        return str(entity_descriptor(self.config()))

    def trust(self, pool_id, endpoint, encryption_certificate=None):
        """Adds Cognate's pool as a service provider (its SP metadata, written by hand: Cognito
        publishes none): entity ID, assertion consumer, single logout, encryption certificate."""
        key = ""
        if encryption_certificate:
            key = ('<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">'
                   f'<ds:X509Data><ds:X509Certificate>{encryption_certificate}</ds:X509Certificate></ds:X509Data>'
                   '</ds:KeyInfo></md:KeyDescriptor>')
        self.service_providers.append(
            f'<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="urn:amazon:cognito:sp:{pool_id}">'
            '<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">'
            f'{key}<md:SingleLogoutService Binding="{BINDING_HTTP_POST}" Location="{endpoint}/saml2/logout"/>'
            f'<md:AssertionConsumerService Binding="{BINDING_HTTP_POST}" Location="{endpoint}/saml2/idpresponse" index="0"/>'
            '</md:SPSSODescriptor></md:EntityDescriptor>')

    def server(self):
        return Server(config=self.config())

    def read_request(self, query, signing_certificate=None, logout=False):
        """The AuthnRequest (or LogoutRequest) of a redirect-binding query; with
        `signing_certificate` (PEM) its query signature must verify with it."""
        server = self.server()
        if signing_certificate is not None:
            assert query.get("SigAlg") == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", query
            assert verify_redirect_signature(query, server.sec.sec_backend, cert=bare_certificate(signing_certificate)), query
        if logout:
            return server.parse_logout_request(query["SAMLRequest"], BINDING_HTTP_REDIRECT).message
        return server.parse_authn_request(query["SAMLRequest"], BINDING_HTTP_REDIRECT).message

    def response(self, sp_entity_id, acs, user, attributes, in_response_to=None, encrypt_for=None,
                 sign_assertion=True, sign_response=False, session_index=None, cipher=AES256_CBC, key_transport=RSA_OAEP):
        """A base64 SAMLResponse for `user` (the NameID) with `attributes` (name → [values])."""
        server = self.server()
        extra = {}
        if encrypt_for:
            extra = {"encrypt_assertion": True, "encrypted_advice_attributes": False,
                     "encrypt_cert_assertion": encrypt_for}
        with encryption(server, cipher, key_transport):
            response = server.create_authn_response(
                identity=attributes, in_response_to=in_response_to, destination=acs, sp_entity_id=sp_entity_id,
                name_id=NameID(format=NAMEID_FORMAT_PERSISTENT, text=user), sign_assertion=sign_assertion,
                sign_response=sign_response, authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password",
                                                    "authn_auth": self.entity_id}, **extra)
        text = str(response)
        if session_index is not None:
            assert "SessionIndex" in text
        return base64.b64encode(text.encode()).decode()

    def logout_response(self, request):
        server = self.server()
        response = server.create_logout_response(request, [BINDING_HTTP_POST])
        return base64.b64encode(str(response).encode()).decode()
