/**
 * The HTML document around every built-in page.
 * @module
 */
import type { Theme } from "../../types.js"
import { escapeHtml } from "./escape-html.js"
import { pageCss } from "./page-css.js"
import { colorSchemeOf, cssColor, logoUrl } from "./theme-values.js"

/** What a page puts into the layout. */
export interface PageParts {
  title: string
  theme: Required<Theme>
  /** Already-rendered HTML, placed inside the card. */
  body: string
  /** A script placed at the end of the body; the page's CSP must allow it. */
  script?: string
}

/**
 * A complete HTML document: head with the page CSS and the theme's colours, then the logo (when it
 * is a safe URL) and a card holding `body`. Keeps the class names of Auth.js's
 * document (`__next-auth-theme-*`, `page`, `card`), so CSS written against its pages still
 * applies; the wording is Gatehouse's own (README lists what differs). Plus an empty icon: without
 * one a browser asks the app for `/favicon.ico`, which many apps (SvelteKit's starter among them)
 * answer with a 404 and an error in the console.
 */
export function renderPage({ title, theme, body, script }: PageParts): string {
  const logo = logoUrl(theme.logo)
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">' +
    '<meta http-equiv="X-UA-Compatible" content="IE=edge">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">' +
    '<link rel="icon" href="data:,">' +
    `<style>${pageCss}${themeCss(theme)}</style><title>${escapeHtml(title)}</title></head>` +
    `<body class="__next-auth-theme-${colorSchemeOf(theme.colorScheme)}"><div class="page">` +
    (logo === undefined ? "" : `<img src="${escapeHtml(logo)}" alt="Logo" class="logo">`) +
    `<div class="card">${body}</div></div>${script === undefined ? "" : `<script>${script}</script>`}</body></html>`
  )
}

/** The rule overriding the default brand colours; colours that fail validation are left out. */
function themeCss(theme: Required<Theme>): string {
  const brand = cssColor(theme.brandColor)
  const buttonText = cssColor(theme.buttonText)
  const declarations = [
    brand === undefined ? "" : `--brand-color:${brand};`,
    buttonText === undefined ? "" : `--button-text-color:${buttonText};`,
  ].join("")
  return declarations === "" ? "" : `:root{${declarations}}`
}
