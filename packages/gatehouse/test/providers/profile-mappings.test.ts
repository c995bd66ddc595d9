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
    ]
    const called: Provider[] = [GitHub(credentials), Apple({ ...credentials, profile: (p) => ({ id: p.sub }) })]
    expect(bare).toHaveLength(25)
    expect(called).toHaveLength(2)
  })
})

describe("environment", () => {
  it("fills AUTH_<ID>_ID/_SECRET/_ISSUER into a bare factory and keeps built-in issuers", () => {
    const env = {
      AUTH_AUTH0_ID: "a0-id",
      AUTH_AUTH0_SECRET: "a0-secret",
      AUTH_AUTH0_ISSUER: "https://tenant.eu.auth0.com",
      AUTH_GOOGLE_ID: "g-id",
      AUTH_MICROSOFT_ENTRA_ID_ID: "entra-id",
    }
    expect(providerWithEnv(Auth0, env)).toMatchObject({ id: "auth0", clientId: "a0-id", clientSecret: "a0-secret", issuer: "https://tenant.eu.auth0.com" })
    expect(providerWithEnv(Google, env)).toMatchObject({ id: "google", clientId: "g-id", issuer: "https://accounts.google.com" })
    expect(providerWithEnv(MicrosoftEntraID, env)).toMatchObject({
      id: "microsoft-entra-id",
      clientId: "entra-id",
      issuer: "https://login.microsoftonline.com/common/v2.0",
    })
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
