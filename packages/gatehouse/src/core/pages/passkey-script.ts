/**
 * The sign-in page's passkey script: built in rather than loaded from a CDN (as Auth.js does),
 * so the page works offline and under a strict Content-Security-Policy, which allows exactly
 * this script by its hash. It relies on the WebAuthn JSON helpers (`parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON`, `toJSON`), Baseline since 2025, and says so where they are missing.
 * @module
 */
import { toBase64 } from "../webauthn/credential-encoding.js"

/**
 * For each form marked `data-webauthn-options`: on submit, fetch the ceremony options for the
 * form's fields (`action=register` from the button valued `register`, else `authenticate`), run the ceremony, and post `action` and `data` to the form's callback. The form
 * marked `data-webauthn-conditional` also offers saved passkeys through autofill as soon as the
 * page loads; a submit cancels that request first (a browser runs one ceremony at a time).
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

  const show = (form, message) => {
    const box = form.querySelector("[data-webauthn-error]");
    if (box) { box.textContent = message; box.hidden = false; }
  };
  const explain = (error) => {
    if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
    if (error && error.name === "InvalidStateError") return "This device already holds a passkey for this account.";
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
    if (!conditional || !supported || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
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
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!supported) return show(form, "This browser cannot use passkeys.");
      if (autofill) { autofill.abort(); autofill = null; }
      const query = new URLSearchParams({ action: event.submitter && event.submitter.value === "register" ? "register" : "authenticate" });
      for (const field of form.querySelectorAll("[data-form-field]")) query.set(field.name, field.value);
      ceremony(form, query).catch((error) => {
        show(form, explain(error));
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
    .then((digest) => `'sha256-${toBase64(new Uint8Array(digest))}'`)
  return hash
}
