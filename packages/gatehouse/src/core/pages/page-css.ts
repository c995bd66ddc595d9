/**
 * The style sheet of the built-in pages: a centred card, light and dark palettes, and buttons in
 * the brand colours. No external fonts or images.
 * @module
 */

const light = "--bg:#f3f4f6;--card:#fff;--text:#1f2328;--muted:#57606a;--border:#d0d7de;--danger-bg:#fdecea;--danger-text:#a4161a"
const dark = "--bg:#0d1117;--card:#161b22;--text:#e6edf3;--muted:#9198a1;--border:#30363d;--danger-bg:#3d1518;--danger-text:#ffb3b0"

/**
 * The CSS shared by every page. The body class `__next-auth-theme-{auto|dark|light}` picks the
 * palette; `--brand-color` and `--button-text-color` have defaults a theme rule may override.
 */
export const pageCss =
  ":root{--brand-color:#3451d1;--button-text-color:#fff}" +
  `.__next-auth-theme-light,.__next-auth-theme-auto{${light};color-scheme:light}` +
  `.__next-auth-theme-dark{${dark};color-scheme:dark}` +
  `@media (prefers-color-scheme:dark){.__next-auth-theme-auto{${dark};color-scheme:dark}}` +
  "*,*::before,*::after{box-sizing:border-box}" +
  "html,body{margin:0}" +
  "body{background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}" +
  ".page{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1.5rem;padding:2rem 1rem}" +
  ".logo{max-width:150px;max-height:70px}" +
  ".card{width:100%;max-width:22rem;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:2rem;box-shadow:0 4px 24px rgb(0 0 0/.08)}" +
  "h1{font-size:1.375rem;margin:0 0 .75rem}" +
  "p{margin:0 0 .75rem;color:var(--muted)}" +
  "form,fieldset{display:flex;flex-direction:column;gap:.5rem;margin:0}" +
  "fieldset{min-width:0;padding:0;border:0}" +
  "legend{padding:0;margin-bottom:.5rem;font-weight:600}" +
  "label{font-size:.875rem;font-weight:600}" +
  "input{width:100%;padding:.625rem .75rem;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--border);border-radius:8px}" +
  // A checkbox with its label beside it (the two-factor page's "don't ask again"), not a full-width field.
  ".check{display:flex;align-items:center;gap:.5rem;font-weight:400}" +
  ".check input{width:auto;margin:0}" +
  "input:focus,.button:focus-visible{outline:2px solid var(--brand-color);outline-offset:1px}" +
  ".button{display:block;width:100%;margin-top:.5rem;padding:.7rem 1rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;" +
  "color:var(--button-text-color);background:var(--brand-color);border:0;border-radius:8px;cursor:pointer}" +
  ".button:hover{filter:brightness(1.1)}" +
  "hr{border:0;border-top:1px solid var(--border);margin:1.5rem 0}" +
  ".error{background:var(--danger-bg);color:var(--danger-text);border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem}" +
  ".error p{margin:0;color:inherit}" +
  "a{color:var(--brand-color)}"
