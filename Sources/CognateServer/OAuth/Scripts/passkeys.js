// The hosted pages' passkey ceremonies: signing in with a passkey (navigator.credentials.get)
// and adding one (navigator.credentials.create). The page's form #passkey-form carries the
// options the server made (data-options: PublicKeyCredentialRequestOptionsJSON or
// PublicKeyCredentialCreationOptionsJSON, data-ceremony: "get" or "create"); this script turns
// their base64url members into ArrayBuffers, asks the browser, and posts the authenticator's
// answer (AuthenticationResponseJSON or RegistrationResponseJSON) in the form's "credential"
// field. The pages allow this script, and no other, by its SHA-256 in their
// Content-Security-Policy: it must stay free of anything a page fills in.
(function () {
  "use strict";
  var form = document.getElementById("passkey-form");
  if (!form) return;
  var button = document.getElementById("passkey-button");
  var alertBox = document.getElementById("passkey-error");
  var creating = form.getAttribute("data-ceremony") === "create";

  function fromBase64url(text) {
    var base64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (descriptor) {
      var converted = { type: descriptor.type || "public-key", id: fromBase64url(descriptor.id) };
      if (descriptor.transports) converted.transports = descriptor.transports;
      return converted;
    });
  }

  // PublicKeyCredentialRequestOptionsJSON -> PublicKeyCredentialRequestOptions
  function requestOptions(json) {
    var options = Object.assign({}, json);
    options.challenge = fromBase64url(json.challenge);
    options.allowCredentials = descriptors(json.allowCredentials);
    return options;
  }

  // PublicKeyCredentialCreationOptionsJSON -> PublicKeyCredentialCreationOptions
  function creationOptions(json) {
    var options = Object.assign({}, json);
    options.challenge = fromBase64url(json.challenge);
    options.user = Object.assign({}, json.user, { id: fromBase64url(json.user.id) });
    options.excludeCredentials = descriptors(json.excludeCredentials);
    return options;
  }

  // The credential as RegistrationResponseJSON or AuthenticationResponseJSON.
  function responseJSON(credential) {
    var response = credential.response;
    var members;
    if (creating) {
      members = {
        clientDataJSON: toBase64url(response.clientDataJSON),
        attestationObject: toBase64url(response.attestationObject),
        transports: typeof response.getTransports === "function" ? response.getTransports() : []
      };
    } else {
      members = {
        clientDataJSON: toBase64url(response.clientDataJSON),
        authenticatorData: toBase64url(response.authenticatorData),
        signature: toBase64url(response.signature),
        userHandle: response.userHandle ? toBase64url(response.userHandle) : null
      };
    }
    return {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || null,
      clientExtensionResults: {},
      response: members
    };
  }

  function explain(error) {
    switch (error && error.name) {
      case "NotAllowedError":
        return creating ? "The passkey wasn't saved. Try again when you're ready."
          : "No passkey was used. Try again, or choose another way to sign in.";
      case "InvalidStateError":
        return "This device already has a passkey for your account.";
      case "SecurityError":
        return "Passkeys can't be used at this address.";
      default:
        return "Your browser couldn't use a passkey. Try again.";
    }
  }

  function show(message) {
    alertBox.querySelector("span").textContent = message;
    alertBox.hidden = false;
  }

  if (!window.PublicKeyCredential || !navigator.credentials) {
    show("This browser can't use passkeys.");
    button.disabled = true;
    return;
  }
  var options = JSON.parse(form.getAttribute("data-options"));
  button.addEventListener("click", function () {
    button.disabled = true;
    alertBox.hidden = true;
    var ceremony = creating
      ? navigator.credentials.create({ publicKey: creationOptions(options) })
      : navigator.credentials.get({ publicKey: requestOptions(options) });
    ceremony.then(function (credential) {
      if (!credential) throw { name: "NotAllowedError" };
      form.elements.credential.value = JSON.stringify(responseJSON(credential));
      form.submit();
    }).catch(function (error) {
      show(explain(error));
      button.disabled = false;
    });
  });
})();
