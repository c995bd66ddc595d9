import { describe, expect, it } from "vitest"
import { providerWithEnv } from "../../src/env.js"
import type { OAuthConfig, Provider } from "../../src/types.js"
import Apple from "../../src/providers/apple.js"
import Atlassian from "../../src/providers/atlassian.js"
import Auth0 from "../../src/providers/auth0.js"
import Authentik from "../../src/providers/authentik.js"
import Bitbucket from "../../src/providers/bitbucket.js"
import Cognito from "../../src/providers/cognito.js"
import Discord from "../../src/providers/discord.js"
import Dropbox from "../../src/providers/dropbox.js"
import Facebook from "../../src/providers/facebook.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import Keycloak from "../../src/providers/keycloak.js"
import LinkedIn from "../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Notion from "../../src/providers/notion.js"
import Okta from "../../src/providers/okta.js"
import Reddit from "../../src/providers/reddit.js"
import Slack from "../../src/providers/slack.js"
import Spotify from "../../src/providers/spotify.js"
import Strava from "../../src/providers/strava.js"
import Twitch from "../../src/providers/twitch.js"
import Twitter from "../../src/providers/twitter.js"
import Zitadel from "../../src/providers/zitadel.js"
import Zoom from "../../src/providers/zoom.js"
import Passage from "../../src/providers/passage.js"
import Patreon from "../../src/providers/patreon.js"
import PingId from "../../src/providers/ping-id.js"
import Pinterest from "../../src/providers/pinterest.js"
import Pipedrive from "../../src/providers/pipedrive.js"
import Roblox from "../../src/providers/roblox.js"
import Salesforce from "../../src/providers/salesforce.js"
import SimpleLogin from "../../src/providers/simplelogin.js"
import Threads from "../../src/providers/threads.js"
import TikTok from "../../src/providers/tiktok.js"
import Todoist from "../../src/providers/todoist.js"
import Trakt from "../../src/providers/trakt.js"
import UnitedEffects from "../../src/providers/united-effects.js"
import Vipps from "../../src/providers/vipps.js"
import VK from "../../src/providers/vk.js"
import Webex from "../../src/providers/webex.js"
import WeChat from "../../src/providers/wechat.js"
import Wikimedia from "../../src/providers/wikimedia.js"
import WordPress from "../../src/providers/wordpress.js"
import WorkOS from "../../src/providers/workos.js"
import Yandex from "../../src/providers/yandex.js"
import Zoho from "../../src/providers/zoho.js"
import { endpointParams, endpointURL, mapProfile } from "./helpers.js"

const credentials = { clientId: "id", clientSecret: "secret" }

/** Host and path of the authorization endpoint, and its scope (`null` when it names none). */
function authorizationShape(config: OAuthConfig): { endpoint: string; scope: string | null } {
  const url = endpointURL(config.authorization)
  return { endpoint: `${url.origin}${url.pathname}`, scope: url.searchParams.get("scope") }
}

function url(endpoint: OAuthConfig["token"]): string {
  return endpointURL(endpoint).href
}

describe("typing", () => {
  it("every factory, bare or called, fits in `providers`", () => {
    const bare: Provider[] = [
      Apple, Atlassian, Auth0, Authentik, Bitbucket, Cognito, Discord, Dropbox, Facebook, GitHub, GitLab, Google, Keycloak,
      LinkedIn, MicrosoftEntraID, Notion, Okta, Reddit, Slack, Spotify, Strava, Twitch, Twitter, Zitadel, Zoom,
      Passage, Patreon, PingId, Pinterest, Pipedrive, Roblox, Salesforce, SimpleLogin, Threads, TikTok, Todoist, Trakt,
      UnitedEffects, Vipps, VK, Webex, WeChat, Wikimedia, WordPress, WorkOS, Yandex, Zoho,
    ]
    const called: Provider[] = [GitHub(credentials), Apple({ ...credentials, profile: (p) => ({ id: p.sub }) })]
    expect(bare).toHaveLength(47)
    expect(called).toHaveLength(2)
  })
})

describe("environment", () => {
  const env = {
    AUTH_AUTH0_ID: "a0-id",
    AUTH_AUTH0_SECRET: "a0-secret",
    AUTH_AUTH0_ISSUER: "https://tenant.eu.auth0.com",
    AUTH_GOOGLE_ID: "g-id",
    AUTH_MICROSOFT_ENTRA_ID_ID: "entra-id",
    AUTH_PING_ID_ID: "ping-client",
    AUTH_PING_ID_ISSUER: "https://auth.pingone.eu/env-1/as",
    AUTH_UNITED_EFFECTS_ID: "ue-client",
    AUTH_UNITED_EFFECTS_ISSUER: "https://auth.unitedeffects.com/group-1",
    AUTH_WECHAT_ID: "wx-app",
    AUTH_WECHAT_SECRET: "wx-secret",
    AUTH_TIKTOK_ID: "tt-key",
    AUTH_WORKOS_ISSUER: "https://workos.internal.example/",
  }
  it("fills AUTH_<ID>_ID/_SECRET/_ISSUER into a bare factory and keeps built-in issuers", () => {
    expect(providerWithEnv(Auth0, env)).toMatchObject({ id: "auth0", clientId: "a0-id", clientSecret: "a0-secret", issuer: "https://tenant.eu.auth0.com" })
    expect(providerWithEnv(Google, env)).toMatchObject({ id: "google", clientId: "g-id", issuer: "https://accounts.google.com" })
    expect(providerWithEnv(MicrosoftEntraID, env)).toMatchObject({
      id: "microsoft-entra-id",
      clientId: "entra-id",
      issuer: "https://login.microsoftonline.com/common/v2.0",
    })
  })

  it("hands the factories of hyphenated ids their AUTH_<ID>_* values, and the ones that need them at build time get them", () => {
    expect(providerWithEnv(PingId, env)).toMatchObject({ id: "ping-id", clientId: "ping-client", issuer: "https://auth.pingone.eu/env-1/as" })
    // United Effects names the issuer as the resource, WeChat sends appid and secret, TikTok client_key.
    const unitedEffects = providerWithEnv(UnitedEffects, env) as OAuthConfig
    expect(unitedEffects).toMatchObject({ clientId: "ue-client", issuer: "https://auth.unitedeffects.com/group-1" })
    expect(endpointParams(unitedEffects.authorization)).toMatchObject({ resource: "https://auth.unitedeffects.com/group-1" })
    const weChat = providerWithEnv(WeChat, env) as OAuthConfig
    expect(endpointParams(weChat.authorization)).toMatchObject({ appid: "wx-app" })
    expect(endpointParams(weChat.token)).toEqual({ appid: "wx-app", secret: "wx-secret" })
    expect(endpointParams((providerWithEnv(TikTok, env) as OAuthConfig).authorization)).toMatchObject({ client_key: "tt-key" })
    // AUTH_WORKOS_ISSUER moves every endpoint, as Auth.js's issuer option does.
    expect(url((providerWithEnv(WorkOS, env) as OAuthConfig).token)).toBe("https://workos.internal.example/sso/token")
  })
})

describe("GitHub", () => {
  const config = GitHub(credentials)
  it("maps /user, stringifying the numeric id and falling back to the login for the name", async () => {
    const fixture = { login: "octocat", id: 583231, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4", html_url: "https://github.com/octocat", name: "The Octocat", email: "octocat@github.com", type: "User" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "583231", name: "The Octocat", email: "octocat@github.com", image: "https://avatars.githubusercontent.com/u/583231?v=4" })
    expect(await mapProfile(config, { ...fixture, name: null, email: null })).toMatchObject({ id: "583231", name: "octocat", email: null })
  })
  it("asks github.com for read:user and user:email", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://github.com/login/oauth/authorize", scope: "read:user user:email" })
    expect(url(config.token)).toBe("https://github.com/login/oauth/access_token")
    expect(url(config.userinfo)).toBe("https://api.github.com/user")
  })
})

describe("Google", () => {
  const config = Google(credentials)
  it("maps the ID token claims", async () => {
    const fixture = { iss: "https://accounts.google.com", aud: "id", sub: "110169484474386276334", email: "ada@example.com", email_verified: true, name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", picture: "https://lh3.googleusercontent.com/a/photo", locale: "en" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "110169484474386276334", name: "Ada Lovelace", email: "ada@example.com", image: "https://lh3.googleusercontent.com/a/photo" })
  })
  it("discovers from accounts.google.com", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://accounts.google.com" })
    expect(config.authorization).toBeUndefined()
  })
})

describe("Apple", () => {
  const config = Apple(credentials)
  it("maps the ID token, with the name from the first sign-in's user parameter", async () => {
    const fixture = { iss: "https://appleid.apple.com", sub: "001234.abcdef0123456789.1234", email: "x9k2@privaterelay.appleid.com", email_verified: true, is_private_email: true }
    expect(await mapProfile(config, fixture)).toEqual({ id: "001234.abcdef0123456789.1234", name: null, email: "x9k2@privaterelay.appleid.com", image: null })
    const withUser = { ...fixture, user: { name: { firstName: "Ada", lastName: "Lovelace" }, email: "x9k2@privaterelay.appleid.com" } }
    expect(await mapProfile(config, withUser)).toMatchObject({ name: "Ada Lovelace" })
    expect(await mapProfile(config, { ...fixture, user: { name: { firstName: "Ada" } } })).toMatchObject({ name: "Ada" })
  })
  it("asks for name and email by form_post, and authenticates in the body", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://appleid.apple.com", client: { token_endpoint_auth_method: "client_secret_post" } })
    expect(authorizationShape(config)).toEqual({ endpoint: "https://appleid.apple.com/auth/authorize", scope: "name email" })
    expect(endpointParams(config.authorization)).toMatchObject({ response_mode: "form_post" })
  })
})

describe("Microsoft Entra ID", () => {
  it("maps the ID token claims", async () => {
    const fixture = { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", oid: "00000000-0000-0000-66f3-3332eca7ea81", tid: "9188040d-6c67-4c5b-b112-36a304b66dad", name: "Ada Lovelace", preferred_username: "ada@contoso.com", email: "ada@contoso.com" }
    expect(await mapProfile(MicrosoftEntraID(credentials), fixture)).toEqual({ id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", name: "Ada Lovelace", email: "ada@contoso.com", image: null })
    // preferred_username is not a verified address, so it never stands in for the email.
    expect(await mapProfile(MicrosoftEntraID(credentials), { ...fixture, email: undefined })).toMatchObject({ email: null })
  })
  it("asks for User.Read as Auth.js does, so the access token can still read the user from Microsoft Graph", () => {
    expect(endpointParams(MicrosoftEntraID(credentials).authorization)).toEqual({ scope: "openid profile email User.Read" })
  })
  it("builds the issuer from tenantId (default common)", () => {
    expect(MicrosoftEntraID(credentials).issuer).toBe("https://login.microsoftonline.com/common/v2.0")
    expect(MicrosoftEntraID({ ...credentials, tenantId: "contoso.onmicrosoft.com" }).issuer).toBe("https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0")
    expect(MicrosoftEntraID({ tenantId: "organizations", issuer: "https://login.microsoftonline.com/x/v2.0" }).issuer).toBe("https://login.microsoftonline.com/x/v2.0")
    expect(MicrosoftEntraID({ tenantId: "x" })).not.toHaveProperty("tenantId")
  })
})

describe("GitLab", () => {
  const config = GitLab(credentials)
  it("maps /api/v4/user, stringifying the numeric id", async () => {
    const fixture = { id: 1, username: "john_smith", name: "John Smith", state: "active", avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg", web_url: "https://gitlab.com/john_smith", email: "john@example.com" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "1", name: "John Smith", email: "john@example.com", image: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg" })
    expect(await mapProfile(config, { ...fixture, name: null, email: null, avatar_url: null })).toEqual({ id: "1", name: "john_smith", email: null, image: null })
  })
  it("asks gitlab.com for read_user", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://gitlab.com/oauth/authorize", scope: "read_user" })
    expect(url(config.token)).toBe("https://gitlab.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://gitlab.com/api/v4/user")
  })
})

describe("Discord", () => {
  const config = Discord(credentials)
  const fixture = { id: "80351110224678912", username: "nelly", discriminator: "0", global_name: "Nelly", avatar: "8342729096ea3675442027381ff50dfe", email: "nelly@discord.com", verified: true }
  it("maps /users/@me with the CDN avatar (gif when animated)", async () => {
    expect(await mapProfile(config, fixture)).toEqual({ id: "80351110224678912", name: "Nelly", email: "nelly@discord.com", image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png" })
    expect(await mapProfile(config, { ...fixture, avatar: "a_1269e74af4df7417b13759eae50c83dc" })).toMatchObject({ image: "https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif" })
  })
  it("falls back to the username and to Discord's default avatars", async () => {
    // New usernames: (id >> 22) % 6; 80351110224678912 >> 22 = 19157418203, % 6 = 5.
    expect(await mapProfile(config, { ...fixture, global_name: null, avatar: null })).toMatchObject({ name: "nelly", image: "https://cdn.discordapp.com/embed/avatars/5.png" })
    // Legacy tags: discriminator % 5.
    expect(await mapProfile(config, { ...fixture, avatar: null, discriminator: "1337" })).toMatchObject({ image: "https://cdn.discordapp.com/embed/avatars/2.png" })
    // A malformed id costs the picture its accuracy, not the sign-in.
    expect(await mapProfile(config, { ...fixture, id: "not-a-snowflake", avatar: null })).toMatchObject({ image: "https://cdn.discordapp.com/embed/avatars/0.png" })
  })
  it("asks for identify and email", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://discord.com/api/oauth2/authorize", scope: "identify email" })
    expect(url(config.userinfo)).toBe("https://discord.com/api/users/@me")
  })
})

describe("Slack", () => {
  const config = Slack(credentials)
  it("maps the OpenID claims", async () => {
    const fixture = { ok: true, sub: "U0R7JM", "https://slack.com/user_id": "U0R7JM", "https://slack.com/team_id": "T0R7GR", email: "krane@slack-corp.com", email_verified: true, name: "krane", picture: "https://secure.gravatar.com/avatar/abc.jpg", given_name: "Bront", family_name: "Labradoodle" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "U0R7JM", name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/abc.jpg" })
  })
  it("discovers from slack.com", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://slack.com", checks: ["nonce"] })
  })
})

describe("Twitter", () => {
  const config = Twitter(credentials)
  it("maps the user under data", async () => {
    const fixture = { data: { id: "2244994945", name: "X Dev", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/profile_images/1/normal.jpg" } }
    expect(await mapProfile(config, fixture)).toEqual({ id: "2244994945", name: "X Dev", email: null, image: "https://pbs.twimg.com/profile_images/1/normal.jpg" })
    expect(await mapProfile(config, { data: { ...fixture.data, confirmed_email: "dev@x.com" } })).toMatchObject({ email: "dev@x.com" })
  })
  it("uses OAuth 2 with PKCE and state", () => {
    expect(config.checks).toEqual(["pkce", "state"])
    expect(authorizationShape(config)).toEqual({ endpoint: "https://x.com/i/oauth2/authorize", scope: "users.read tweet.read offline.access" })
    expect(url(config.token)).toBe("https://api.x.com/2/oauth2/token")
    expect(url(config.userinfo)).toBe("https://api.x.com/2/users/me?user.fields=profile_image_url")
  })
})

describe("Facebook", () => {
  const config = Facebook(credentials)
  it("maps the Graph API user with the picture URL", async () => {
    const fixture = { id: "10158475543281234", name: "Ada Lovelace", email: "ada@example.com", picture: { data: { height: 50, width: 50, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1" } } }
    expect(await mapProfile(config, fixture)).toEqual({ id: "10158475543281234", name: "Ada Lovelace", email: "ada@example.com", image: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=1" })
    expect(await mapProfile(config, { id: "1", name: "No Email" })).toEqual({ id: "1", name: "No Email", email: null, image: null })
  })
  it("asks for email and names the fields it reads", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.facebook.com/dialog/oauth", scope: "email" })
    expect(endpointURL(config.userinfo).searchParams.get("fields")).toBe("id,name,email,picture")
  })
})

describe("LinkedIn", () => {
  const config = LinkedIn(credentials)
  it("maps the OpenID claims", async () => {
    const fixture = { sub: "782bbtaQ", name: "John Doe", given_name: "John", family_name: "Doe", picture: "https://media.licdn.com/dms/image/C4D03AQ/photo", locale: "en-US", email: "doe@email.com", email_verified: true }
    expect(await mapProfile(config, fixture)).toEqual({ id: "782bbtaQ", name: "John Doe", email: "doe@email.com", image: "https://media.licdn.com/dms/image/C4D03AQ/photo" })
  })
  it("discovers from linkedin.com/oauth and authenticates in the body", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://www.linkedin.com/oauth", client: { token_endpoint_auth_method: "client_secret_post" } })
    expect(endpointParams(config.authorization)).toEqual({ scope: "openid profile email" })
  })
})

describe("Twitch", () => {
  const config = Twitch(credentials)
  it("maps the ID token claims", async () => {
    const fixture = { aud: "id", iss: "https://id.twitch.tv/oauth2", sub: "713936733", preferred_username: "ada_plays", email: "ada@example.com", email_verified: true, picture: "https://static-cdn.jtvnw.net/user-default-pictures/1.png" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "713936733", name: "ada_plays", email: "ada@example.com", image: "https://static-cdn.jtvnw.net/user-default-pictures/1.png" })
  })
  it("asks for the email claim", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://id.twitch.tv/oauth2" })
    expect(endpointParams(config.authorization)).toEqual({
      scope: "openid user:read:email",
      claims: { id_token: { email: null, picture: null, preferred_username: null } },
    })
  })
})

describe("Spotify", () => {
  const config = Spotify(credentials)
  it("maps /v1/me with the first image", async () => {
    const fixture = { id: "wizzler", display_name: "JM Wizzler", email: "email@example.com", country: "SE", product: "premium", images: [{ url: "https://i.scdn.co/image/ab6775700000ee85", height: 300, width: 300 }, { url: "https://i.scdn.co/image/small", height: 64, width: 64 }] }
    expect(await mapProfile(config, fixture)).toEqual({ id: "wizzler", name: "JM Wizzler", email: "email@example.com", image: "https://i.scdn.co/image/ab6775700000ee85" })
    expect(await mapProfile(config, { ...fixture, display_name: null, images: [] })).toMatchObject({ name: null, image: null })
  })
  it("asks for user-read-email", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://accounts.spotify.com/authorize", scope: "user-read-email" })
    expect(url(config.token)).toBe("https://accounts.spotify.com/api/token")
    expect(url(config.userinfo)).toBe("https://api.spotify.com/v1/me")
  })
})

describe.each([
  ["Auth0", Auth0, "https://dev-abc123.us.auth0.com/", { sub: "auth0|64b1f0c2a7e3", nickname: "ada", name: "ada@example.com", email: "ada@example.com", email_verified: true, picture: "https://s.gravatar.com/avatar/abc.png" }, "ada@example.com", "ada"],
  ["Okta", Okta, "https://dev-123456.okta.com/oauth2/default", { sub: "00uid4BxXw6I6TV4m0g3", name: "Ada Lovelace", preferred_username: "ada@example.com", email: "ada@example.com", email_verified: true, picture: "https://okta.example/ada.png" }, "Ada Lovelace", "ada@example.com"],
  ["Keycloak", Keycloak, "https://keycloak.example.com/realms/acme", { sub: "f:550e8400-e29b-41d4-a716-446655440000:ada", preferred_username: "ada", name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", email: "ada@example.com", email_verified: true, picture: "https://keycloak.example.com/ada.png" }, "Ada Lovelace", "ada"],
  ["Cognito", Cognito, "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123", { sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "cognito:username": "ada", name: "Ada Lovelace", email: "ada@example.com", email_verified: true, picture: "https://cdn.example/ada.png" }, "Ada Lovelace", "ada"],
  ["Zitadel", Zitadel, "https://acme-xyz.zitadel.cloud", { sub: "234567890123456789", name: "Ada Lovelace", preferred_username: "ada@acme.zitadel.cloud", email: "ada@example.com", email_verified: true, picture: "https://acme-xyz.zitadel.cloud/assets/v1/avatar.png" }, "Ada Lovelace", "ada@acme.zitadel.cloud"],
  ["Authentik", Authentik, "https://authentik.example.com/application/o/my-app/", { sub: "b7e9c2f1d0a84a3f9e1c", name: "Ada Lovelace", preferred_username: "ada", nickname: "ada", email: "ada@example.com", email_verified: true, groups: ["admins"] }, "Ada Lovelace", "ada"],
] as const)("%s", (_name, factory, issuer, fixture, expectedName, fallbackName) => {
  it("maps the ID token claims", async () => {
    const config = factory({ ...credentials, issuer })
    expect(await mapProfile(config, fixture)).toEqual({
      id: fixture.sub,
      name: expectedName,
      email: "ada@example.com",
      image: "picture" in fixture ? fixture.picture : null,
    })
  })
  it("takes the issuer from its options (or AUTH_<ID>_ISSUER), with no default", () => {
    expect(factory({ ...credentials, issuer })).toMatchObject({ type: "oidc", issuer })
    expect(factory(credentials).issuer).toBeUndefined()
  })
  it("falls back to the user name the provider has when there is no name", async () => {
    const { name: _omit, ...nameless } = fixture
    expect(await mapProfile(factory({ ...credentials, issuer }), nameless)).toMatchObject({ name: fallbackName })
  })
})

describe("Reddit", () => {
  const config = Reddit(credentials)
  it("maps /api/v1/me, unescaping the icon URL", async () => {
    const fixture = { id: "1w72", name: "spez", icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;s=abc", total_karma: 1000 }
    expect(await mapProfile(config, fixture)).toEqual({ id: "1w72", name: "spez", email: null, image: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=abc" })
    expect(await mapProfile(config, { id: "1w72", name: "spez", icon_img: "" })).toMatchObject({ image: null })
  })
  it("asks for identity, with a state check", () => {
    expect(config.checks).toEqual(["state"])
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.reddit.com/api/v1/authorize", scope: "identity" })
    expect(url(config.token)).toBe("https://www.reddit.com/api/v1/access_token")
    expect(url(config.userinfo)).toBe("https://oauth.reddit.com/api/v1/me")
  })
})

describe("Notion", () => {
  const config = Notion(credentials)
  it("maps the person who owns the integration", async () => {
    const fixture = { object: "user", id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", type: "person", name: "Avocado Lovelace", avatar_url: "https://secure.notion-static.com/e6a352a8.jpg", person: { email: "avo@example.org" } }
    expect(await mapProfile(config, fixture)).toEqual({ id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6", name: "Avocado Lovelace", email: "avo@example.org", image: "https://secure.notion-static.com/e6a352a8.jpg" })
    expect(await mapProfile(config, { ...fixture, person: {}, avatar_url: null })).toMatchObject({ email: null, image: null })
  })
  it("asks the user to pick pages (owner=user)", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://api.notion.com/v1/oauth/authorize", scope: null })
    expect(endpointParams(config.authorization)).toEqual({ owner: "user" })
    expect(url(config.token)).toBe("https://api.notion.com/v1/oauth/token")
  })
})

describe("Dropbox", () => {
  const config = Dropbox(credentials)
  it("maps get_current_account", async () => {
    const fixture = { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: { given_name: "Franz", surname: "Ferdinand", familiar_name: "Franz", display_name: "Franz Ferdinand (Personal)", abbreviated_name: "FF" }, email: "franz@dropbox.com", email_verified: true, disabled: false, profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: "Franz Ferdinand (Personal)", email: "franz@dropbox.com", image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA" })
  })
  it("asks for account_info.read and a refresh token", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.dropbox.com/oauth2/authorize", scope: "account_info.read" })
    expect(endpointParams(config.authorization)).toMatchObject({ token_access_type: "offline" })
    expect(url(config.token)).toBe("https://api.dropboxapi.com/oauth2/token")
  })
})

describe("Bitbucket", () => {
  const config = Bitbucket(credentials)
  it("maps /2.0/user with the looked-up email", async () => {
    const fixture = { account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443", uuid: "{d301aafa-d676-4ee0-88be-962be7417567}", display_name: "Ada Lovelace", nickname: "ada", links: { avatar: { href: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/initials/AL-1.png" } }, email: "ada@example.com" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443", name: "Ada Lovelace", email: "ada@example.com", image: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/initials/AL-1.png" })
    expect(await mapProfile(config, { ...fixture, email: null, links: {} })).toMatchObject({ email: null, image: null })
  })
  it("asks for account and email", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://bitbucket.org/site/oauth2/authorize", scope: "account email" })
    expect(url(config.token)).toBe("https://bitbucket.org/site/oauth2/access_token")
    expect(url(config.userinfo)).toBe("https://api.bitbucket.org/2.0/user")
  })
})

describe("Strava", () => {
  const config = Strava(credentials)
  it("maps the athlete, stringifying the numeric id", async () => {
    const fixture = { id: 134815, username: "marianne_t", firstname: "Marianne", lastname: "Teutenberg", city: "San Francisco", profile_medium: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/medium.jpg", profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/large.jpg" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "134815", name: "Marianne Teutenberg", email: null, image: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/large.jpg" })
  })
  it("asks for read and authenticates in the body", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.strava.com/api/v3/oauth/authorize", scope: "read" })
    expect(endpointParams(config.authorization)).toMatchObject({ approval_prompt: "auto" })
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
    expect(url(config.userinfo)).toBe("https://www.strava.com/api/v3/athlete")
  })
})

describe("Zoom", () => {
  const config = Zoom(credentials)
  it("maps /v2/users/me", async () => {
    const fixture = { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", display_name: "Jill Chill", email: "jchill@example.com", type: 1, pic_url: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/photo", account_id: "q6gBJVO5TzexKYTb_I2rpg" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "KDcuGIm1QgePTO8WbOqwIQ", name: "Jill Chill", email: "jchill@example.com", image: "https://example.zoom.us/p/KDcuGIm1QgePTO8WbOqwIQ/photo" })
    expect(await mapProfile(config, { ...fixture, display_name: "" })).toMatchObject({ name: "Jill Chill" })
  })
  it("sends an empty scope, so Zoom grants the app's configured scopes", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://zoom.us/oauth/authorize", scope: "" })
    expect(url(config.token)).toBe("https://zoom.us/oauth/token")
    expect(url(config.userinfo)).toBe("https://api.zoom.us/v2/users/me")
  })
})

describe("Atlassian", () => {
  const config = Atlassian(credentials)
  it("maps /me", async () => {
    const fixture = { account_type: "atlassian", account_id: "112233aa-bb11-cc22-33dd-445566abcabc", email: "mia@example.com", name: "Mia Krystof", picture: "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233aa/1234abcd-9876-54aa-33aa-1234dfsade9487ds", account_status: "active", nickname: "mkrystof" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "112233aa-bb11-cc22-33dd-445566abcabc", name: "Mia Krystof", email: "mia@example.com", image: fixture.picture })
  })
  it("asks the API gateway audience for read:me, with consent", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://auth.atlassian.com/authorize", scope: "read:me" })
    expect(endpointParams(config.authorization)).toMatchObject({ audience: "api.atlassian.com", prompt: "consent" })
    expect(url(config.token)).toBe("https://auth.atlassian.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://api.atlassian.com/me")
  })
})

describe.each([
  ["Passage", Passage, { iss: "https://auth.passage.id/v1/apps/app1", sub: "pzBa1Bd5Ud", aud: ["app1"], exp: 1700003600, iat: 1700000000, email: "ada@example.com", email_verified: true }, { id: "pzBa1Bd5Ud", name: null, email: "ada@example.com", image: null }],
  ["Ping Identity", PingId, { iss: "https://auth.pingone.eu/env/as", sub: "4e4c5f1a-0b5d-4a7e", aud: "id", iat: 1, exp: 2, name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", preferred_username: "ada", email: "ada@example.com", picture: "https://cdn.example/ada.png" }, { id: "4e4c5f1a-0b5d-4a7e", name: "Ada Lovelace", email: "ada@example.com", image: "https://cdn.example/ada.png" }],
  ["United Effects", UnitedEffects, { sub: "d1b5a8c0-ue", email: "ada@example.com" }, { id: "d1b5a8c0-ue", name: null, email: "ada@example.com", image: null }],
  ["Vipps", Vipps, { sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944", name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", email: "ada@example.no", email_verified: true, phone_number: "4712345678" }, { id: "c06c4afe-d9e1-4c5d-939a-177d752a0944", name: "Ada Lovelace", email: "ada@example.no", image: null }],
] as const)("%s", (_name, factory, fixture, user) => {
  it("maps the standard claims", async () => {
    expect(await mapProfile(factory({ ...credentials, issuer: "https://issuer.example" }), fixture)).toEqual(user)
  })
})

describe("Roblox", () => {
  const config = Roblox(credentials)
  it("maps the ID token, with the display name and headshot", async () => {
    const fixture = { sub: "1516563360", name: "Roblox Dev", nickname: "Roblox Dev", preferred_username: "robloxdev", created_at: 1584663103, profile: "https://www.roblox.com/users/1516563360/profile", picture: "https://tr.rbxcdn.com/headshot.png" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "1516563360", name: "Roblox Dev", email: null, image: "https://tr.rbxcdn.com/headshot.png" })
    expect(await mapProfile(config, { ...fixture, picture: null })).toMatchObject({ image: null })
  })
  it("discovers from apis.roblox.com/oauth/ with openid and profile, PKCE and state", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://apis.roblox.com/oauth/", checks: ["pkce", "state"] })
    expect(endpointParams(config.authorization)).toEqual({ scope: "openid profile" })
  })
})

describe("Salesforce", () => {
  const config = Salesforce(credentials)
  it("maps the userinfo answer, its sub (the identity URL) being the id", async () => {
    const fixture = { sub: "https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P", user_id: "005x00000012Q9P", organization_id: "00Dx0000000BV7z", name: "Ada Lovelace", nickname: "ada", preferred_username: "ada@acme.com", email: "ada@acme.com", email_verified: true, picture: "https://acme.my.salesforce.com/profilephoto/005/F" }
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.sub, name: "Ada Lovelace", email: "ada@acme.com", image: "https://acme.my.salesforce.com/profilephoto/005/F" })
    expect(await mapProfile(config, { ...fixture, name: undefined })).toMatchObject({ name: "ada" })
  })
  it("discovers from login.salesforce.com and reads the profile from userinfo, with every check", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://login.salesforce.com", idToken: false, checks: ["pkce", "state", "nonce"] })
  })
})

describe("SimpleLogin", () => {
  it("maps the claims with the avatar", async () => {
    const fixture = { id: 1, sub: "1", email: "alias.ada@simplelogin.com", email_verified: true, name: "Ada", avatar_url: "https://app.simplelogin.io/avatar.png", client: "My app" }
    expect(await mapProfile(SimpleLogin(credentials), fixture)).toEqual({ id: "1", name: "Ada", email: "alias.ada@simplelogin.com", image: "https://app.simplelogin.io/avatar.png" })
    expect(await mapProfile(SimpleLogin(credentials), { ...fixture, avatar_url: undefined })).toMatchObject({ image: null })
  })
})

describe("Patreon", () => {
  const config = Patreon(credentials)
  it("maps the user under data.attributes", async () => {
    const fixture = { data: { id: "32187", type: "user", attributes: { full_name: "Ada Lovelace", email: "ada@example.com", is_email_verified: true, image_url: "https://c8.patreon.com/2/200/32187", url: "https://www.patreon.com/user?u=32187" } }, links: { self: "https://www.patreon.com/api/user/32187" } }
    expect(await mapProfile(config, fixture)).toEqual({ id: "32187", name: "Ada Lovelace", email: "ada@example.com", image: "https://c8.patreon.com/2/200/32187" })
  })
  it("asks for identity and identity[email]", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.patreon.com/oauth2/authorize", scope: "identity identity[email]" })
    expect(url(config.userinfo)).toBe("https://www.patreon.com/api/oauth2/api/current_user")
  })
})

describe("Pinterest", () => {
  it("keys the account by its username and gives no email", async () => {
    const fixture = { account_type: "PINNER", profile_image: "https://i.pinimg.com/280x280_RS/ab/cd.jpg", website_url: "https://ada.example", username: "adalovelace" }
    expect(await mapProfile(Pinterest(credentials), fixture)).toEqual({ id: "adalovelace", name: "adalovelace", email: null, image: "https://i.pinimg.com/280x280_RS/ab/cd.jpg" })
  })
})

describe("Pipedrive", () => {
  it("maps the user under data, stringifying the numeric id", async () => {
    const fixture = { success: true, data: { id: 777, name: "James Bond", email: "james@example.com", locale: "en_US", company_id: 7, company_domain: "mi6", icon_url: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120.jpg" } }
    expect(await mapProfile(Pipedrive(credentials), fixture)).toEqual({ id: "777", name: "James Bond", email: "james@example.com", image: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120.jpg" })
    expect(await mapProfile(Pipedrive(credentials), { success: true, data: { ...fixture.data, icon_url: null } })).toMatchObject({ image: null })
  })
})

describe("Threads", () => {
  it("maps the user under data, giving no email", async () => {
    const config = Threads(credentials)
    expect(await mapProfile(config, { data: { id: "17841405793187218", username: "threadsapitestuser", threads_profile_picture_url: "https://scontent.cdninstagram.com/1.jpg" } })).toEqual({ id: "17841405793187218", name: "threadsapitestuser", email: null, image: "https://scontent.cdninstagram.com/1.jpg" })
    expect(await mapProfile(config, { data: { id: "1" } })).toEqual({ id: "1", name: null, email: null, image: null })
  })
})

describe("TikTok", () => {
  it("maps the user under data.user, giving no email", async () => {
    const fixture = { data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", union_id: "c9c60f44-a68e", avatar_url: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg", display_name: "Tik Toker" } }, error: { code: "ok", message: "", log_id: "20220829194722" } }
    expect(await mapProfile(TikTok(credentials), fixture)).toEqual({ id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", name: "Tik Toker", email: null, image: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg" })
  })
})

describe("Todoist", () => {
  it("maps the synced user", async () => {
    const fixture = { id: "2671355", email: "me@example.com", full_name: "Ada Todo", avatar_big: "https://dcff1xvirvpfp.cloudfront.net/big.jpg", tz_info: { timezone: "Europe/Lisbon" } }
    expect(await mapProfile(Todoist(credentials), fixture)).toEqual({ id: "2671355", name: "Ada Todo", email: "me@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" })
    expect(await mapProfile(Todoist(credentials), { ...fixture, avatar_big: null })).toMatchObject({ image: null })
  })
})

describe("Trakt", () => {
  it("keys the user by their slug, as Auth.js does, and gives no email", async () => {
    const fixture = { username: "sean", private: false, name: "Sean Rudford", vip: true, vip_ep: false, ids: { slug: "sean", uuid: "0c5f3b6c" }, joined_at: "2010-09-25T17:49:25.000Z", location: "SF", about: null, gender: "male", age: 35, images: { avatar: { full: "https://walter.trakt.tv/avatars/large/cf4e7a2d8a.jpg" } } }
    expect(await mapProfile(Trakt(credentials), fixture)).toEqual({ id: "sean", name: "Sean Rudford", email: null, image: "https://walter.trakt.tv/avatars/large/cf4e7a2d8a.jpg" })
    expect(await mapProfile(Trakt(credentials), { ...fixture, name: "", images: {} })).toMatchObject({ name: "sean", image: null })
  })
})

describe("VK", () => {
  const config = VK(credentials)
  it("maps users.get's user with the email from the token response, stringifying the numeric id", async () => {
    const fixture = { id: 210700286, first_name: "Lindsey", last_name: "Stirling", photo_100: "https://sun1-17.userapi.com/s/v1/100.jpg", can_access_closed: true, is_closed: false, email: "lindsey@example.ru" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "210700286", name: "Lindsey Stirling", email: "lindsey@example.ru", image: "https://sun1-17.userapi.com/s/v1/100.jpg" })
    expect(await mapProfile(config, { ...fixture, email: null, last_name: "" })).toMatchObject({ name: "Lindsey", email: null })
  })
  it("asks for email with API version 5.131 and takes no PKCE", () => {
    expect(config.checks).toEqual(["state"])
    expect(endpointURL(config.authorization).href).toBe("https://oauth.vk.com/authorize?scope=email&v=5.131")
    expect(url(config.token)).toBe("https://oauth.vk.com/access_token?v=5.131")
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
})

describe("WeChat", () => {
  it("keys the user by unionid, else openid, giving no email", async () => {
    const fixture = { openid: "OPENID", nickname: "NICKNAME", sex: 1, province: "PROVINCE", city: "CITY", country: "COUNTRY", headimgurl: "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46", privilege: ["PRIVILEGE1"], unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL" }
    expect(await mapProfile(WeChat(credentials), fixture)).toEqual({ id: "o6_bmasdasdsad6_2sgVt7hMZOPfL", name: "NICKNAME", email: null, image: fixture.headimgurl })
    const { unionid: _omit, ...withoutUnionId } = fixture
    expect(await mapProfile(WeChat(credentials), withoutUnionId)).toMatchObject({ id: "OPENID" })
  })
})

describe("Webex", () => {
  it("maps the person with the first address", async () => {
    const fixture = { id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY", emails: ["ada@example.com", "ada.l@example.com"], displayName: "Ada Lovelace", avatar: "https://1efa7a94ed216783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600", orgId: "org-1" }
    expect(await mapProfile(Webex(credentials), fixture)).toEqual({ id: fixture.id, name: "Ada Lovelace", email: "ada@example.com", image: fixture.avatar })
  })
})

describe("Wikimedia", () => {
  const config = Wikimedia(credentials)
  it("maps the OAuth 2 profile, with no picture", async () => {
    const fixture = { sub: "4625873", username: "Ada Lovelace", editcount: 1337, confirmed_email: true, blocked: false, registered: "20150707201203", groups: ["*", "user", "autoconfirmed"], rights: ["read", "edit"], grants: ["basic"], realname: "Ada", email: "ada@example.com" }
    expect(await mapProfile(config, fixture)).toEqual({ id: "4625873", name: "Ada Lovelace", email: "ada@example.com", image: null })
    const { email: _omit, ...noEmail } = fixture
    expect(await mapProfile(config, noEmail)).toMatchObject({ email: null })
  })
  it("sends an empty scope: the consumer's grants apply", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize", scope: "" })
  })
})

describe("WordPress", () => {
  it("maps /rest/v1/me, stringifying the numeric ID", async () => {
    const fixture = { ID: 18342963, display_name: "Ada Lovelace", username: "ada", email: "ada@example.com", email_verified: true, avatar_URL: "https://0.gravatar.com/avatar/ad.png", profile_URL: "https://gravatar.com/ada", primary_blog: 1 }
    expect(await mapProfile(WordPress(credentials), fixture)).toEqual({ id: "18342963", name: "Ada Lovelace", email: "ada@example.com", image: "https://0.gravatar.com/avatar/ad.png" })
    expect(WordPress(credentials).name).toBe("WordPress.com")
  })
})

describe("WorkOS", () => {
  it("maps the SSO profile with the identity provider's picture", async () => {
    const fixture = { object: "profile", id: "prof_01DMC79VCBZ0NY2099737PSVF1", organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY", connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5", connection_type: "GoogleOAuth", idp_id: "103456789", email: "todd@example.com", first_name: "Todd", last_name: "Rundgren", raw_attributes: { picture: "https://lh3.googleusercontent.com/a/todd" } }
    expect(await mapProfile(WorkOS(credentials), fixture)).toEqual({ id: "prof_01DMC79VCBZ0NY2099737PSVF1", name: "Todd Rundgren", email: "todd@example.com", image: "https://lh3.googleusercontent.com/a/todd" })
    expect(await mapProfile(WorkOS(credentials), { ...fixture, first_name: null, last_name: null, raw_attributes: {} })).toMatchObject({ name: null, image: null })
  })
})

describe("Yandex", () => {
  const fixture = { login: "ivan", id: "1000034426", client_id: "4760187d81bc4b7799476b42b5103713", psuid: "1.AAceCw", emails: ["ivan@yandex.ru", "other@yandex.ru"], default_email: "ivan@yandex.ru", is_avatar_empty: false, default_avatar_id: "131652443", first_name: "Иван", last_name: "Иванов", display_name: "Ivan", real_name: "Иван Иванов", sex: "male" as const }
  it("maps /info with the avatar URL built from its id", async () => {
    expect(await mapProfile(Yandex(credentials), fixture)).toEqual({ id: "1000034426", name: "Ivan", email: "ivan@yandex.ru", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" })
  })
  it("falls back to the real name, the first address, and no picture when the avatar is empty", async () => {
    const { display_name: _name, default_email: _email, ...rest } = fixture
    expect(await mapProfile(Yandex(credentials), { ...rest, is_avatar_empty: true })).toEqual({ id: "1000034426", name: "Иван Иванов", email: "ivan@yandex.ru", image: null })
  })
})

describe("Zoho", () => {
  it("maps /oauth/user/info, stringifying the numeric ZUID", async () => {
    const fixture = { First_Name: "Ada", Email: "ada@example.com", Last_Name: "Lovelace", Display_Name: "ada.l", ZUID: 72371924 }
    expect(await mapProfile(Zoho(credentials), fixture)).toEqual({ id: "72371924", name: "Ada Lovelace", email: "ada@example.com", image: null })
  })
})
