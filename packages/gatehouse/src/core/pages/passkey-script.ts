/**
 * The sign-in page's passkey script: built in rather than loaded from a CDN (as Auth.js does),
 * so the page works offline and under a strict Content-Security-Policy, which allows exactly
 * this script by its hash. It relies on the WebAuthn JSON helpers (`parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON`, `toJSON`), Baseline since 2025, and says so where they are missing.
 * @module
 */
import { encodeBase64 } from "../../encoding/base64.js"

/**
 * For each form marked `data-webauthn-options`: on submit, fetch the ceremony options
 * (`action=register` with the form's fields from the button valued `register`, else
 * `authenticate` alone), run the ceremony, and post `action` and `data` to the form's callback. The form
 * marked `data-webauthn-conditional` also offers saved passkeys through autofill as soon as the
 * page loads; a submit cancels that request first (a browser runs one ceremony at a time). A
 * refusal is explained in the form's `data-webauthn-error` box; on an IP address, where browsers
 * refuse passkeys, the box says so (with the `localhost` address on loopback) as the page opens.
 */
export const PASSKEY_SCRIPT = `(() => {
  "use strict";
  const supported = typeof PublicKeyCredential === "function" &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function" &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";
  const conditional = document.querySelector("form[data-webauthn-conditional]");
  // The waiting autofill request: a browser runs one ceremony at a time, and its options response
  // would replace the challenge cookie of a ceremony the user started.
  let autofill = null;

  // Browsers refuse passkeys on an IP address (SecurityError): they belong to a host name.
  const host = location.hostname;
  const onIpAddress = /^[0-9.]+$/.test(host) || host.startsWith("[");
  const ipMessage = () => {
    if (!/^127\\./.test(host) && host !== "[::1]") return "Passkeys do not work at an IP address such as " + host + ". Open this page at the site's host name instead.";
    const here = new URL(location.href);
    here.hostname = "localhost";
    return "Passkeys do not work at an IP address such as " + host + ". Open " + here.href + " instead.";
  };

  const show = (form, message) => {
    const box = form.querySelector("[data-webauthn-error]");
    if (box) { box.textContent = message; box.hidden = false; }
  };
  // Browsers answer NotAllowedError alike for "cancelled", "timed out" and (signing in) "no passkey
  // here", so as not to tell a page which passkeys a device holds: the message says all it may mean.
  const explain = (form, error, action) => {
    const name = error && error.name;
    if (action === "register") {
      if (name === "InvalidStateError") return "This device already holds a passkey for this account.";
      if (name === "NotAllowedError") return "No passkey was created: the request was cancelled or timed out.";
    } else if (name === "NotAllowedError" || name === "InvalidStateError") {
      const signUp = form.querySelector('button[value="register"]');
      return "No passkey for this site was found on this device, or the request was cancelled." +
        (signUp ? ' To make one, use "' + signUp.textContent + '".' : "");
    }
    return "Signing in with a passkey did not work. Please try again.";
  };

  const ceremony = async (form, query, signal) => {
    const response = await fetch(form.dataset.webauthnOptions + "?" + query, { credentials: "same-origin", headers: { Accept: "application/json" }, signal });
    // A failure is answered with a redirect to the error or sign-in page: go there, unless
    // nobody asked yet (autofill starts on page load).
    if (response.redirected) { if (!signal) location.assign(response.url); return; }
    const body = await response.json().catch(() => null);
    if (!response.ok || !body || !body.options) throw new Error("no options");
    const credential = body.action === "register"
      ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(body.options) })
      : await navigator.credentials.get(signal
        ? { publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(body.options), mediation: "conditional", signal }
        : { publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(body.options) });
    if (signal && signal.aborted) return;
    form.elements.namedItem("action").value = body.action;
    form.elements.namedItem("data").value = JSON.stringify(credential);
    HTMLFormElement.prototype.submit.call(form);
  };

  const startAutofill = () => {
    if (!conditional || !supported || onIpAddress || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
    const controller = new AbortController();
    autofill = controller;
    PublicKeyCredential.isConditionalMediationAvailable().then((available) => {
      if (available && !controller.signal.aborted) {
        return ceremony(conditional, new URLSearchParams({ action: "authenticate" }), controller.signal);
      }
    }).catch((error) => {
      // Nobody asked for this one: a failure is no reason to show an error before they do.
      if (!controller.signal.aborted) console.warn("Passkey autofill stopped:", error);
    });
  };

  for (const form of document.querySelectorAll("form[data-webauthn-options]")) {
    // Said before anyone tries: nothing on this page can work at this address.
    if (onIpAddress) show(form, ipMessage());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!supported) return show(form, "This browser cannot use passkeys.");
      if (onIpAddress) return show(form, ipMessage());
      if (autofill) { autofill.abort(); autofill = null; }
      const action = event.submitter && event.submitter.value === "register" ? "register" : "authenticate";
      const query = new URLSearchParams({ action });
      // Only a registration uses the fields (to name the new user); a sign-in sends none.
      if (action === "register") for (const field of form.querySelectorAll("[data-form-field]")) query.set(field.name, field.value);
      ceremony(form, query).catch((error) => {
        show(form, explain(form, error, action));
        startAutofill();
      });
    });
  }
  startAutofill();
})();`

let hash: Promise<string> | undefined

/** The CSP source that allows {@link PASSKEY_SCRIPT}: `'sha256-<base64 digest>'`. Computed once. */
export function passkeyScriptHash(): Promise<string> {
  hash ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(PASSKEY_SCRIPT))
    .then((digest) => `'sha256-${encodeBase64(new Uint8Array(digest))}'`)
  return hash
}
