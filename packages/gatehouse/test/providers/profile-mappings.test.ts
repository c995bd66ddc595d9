import { describe, expect, it } from "vitest"
import { assertConfig } from "../../src/core/assert-config.js"
import { resolveConfig } from "../../src/core/config.js"
import { InvalidConfig } from "../../src/errors.js"
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
import Frontegg from "../../src/providers/frontegg.js"
import FusionAuth from "../../src/providers/fusionauth.js"
import GitHub from "../../src/providers/github.js"
import GitLab from "../../src/providers/gitlab.js"
import Google from "../../src/providers/google.js"
import HubSpot from "../../src/providers/hubspot.js"
import Huggingface from "../../src/providers/huggingface.js"
import IdentityServer4 from "../../src/providers/identity-server4.js"
import Instagram from "../../src/providers/instagram.js"
import Kakao from "../../src/providers/kakao.js"
import Keycloak from "../../src/providers/keycloak.js"
import Kinde from "../../src/providers/kinde.js"
import LINE from "../../src/providers/line.js"
import LinkedIn from "../../src/providers/linkedin.js"
import Logto from "../../src/providers/logto.js"
import Mailchimp from "../../src/providers/mailchimp.js"
import Mailru from "../../src/providers/mailru.js"
import Mastodon from "../../src/providers/mastodon.js"
import Mattermost from "../../src/providers/mattermost.js"
import Medium from "../../src/providers/medium.js"
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js"
import Naver from "../../src/providers/naver.js"
import Netlify from "../../src/providers/netlify.js"
import NetSuite from "../../src/providers/netsuite.js"
import Nextcloud from "../../src/providers/nextcloud.js"
import Notion from "../../src/providers/notion.js"
import Okta from "../../src/providers/okta.js"
import OneLogin from "../../src/providers/onelogin.js"
import OryHydra from "../../src/providers/ory-hydra.js"
import Osso from "../../src/providers/osso.js"
import Osu from "../../src/providers/osu.js"
import Reddit from "../../src/providers/reddit.js"
import Slack from "../../src/providers/slack.js"
import Spotify from "../../src/providers/spotify.js"
import Strava from "../../src/providers/strava.js"
import Twitch from "../../src/providers/twitch.js"
import Twitter from "../../src/providers/twitter.js"
import Zitadel from "../../src/providers/zitadel.js"
import Zoom from "../../src/providers/zoom.js"
import FortyTwo from "../../src/providers/42-school.js"
import Asgardeo from "../../src/providers/asgardeo.js"
import AzureAD from "../../src/providers/azure-ad.js"
import AzureADB2C from "../../src/providers/azure-ad-b2c.js"
import AzureDevOpsProvider from "../../src/providers/azure-devops.js"
import BankIDNorway from "../../src/providers/bankid-no.js"
import BattleNet from "../../src/providers/battlenet.js"
import BeyondIdentity from "../../src/providers/beyondidentity.js"
import Box from "../../src/providers/box.js"
import SAMLJackson from "../../src/providers/boxyhq-saml.js"
import Bungie from "../../src/providers/bungie.js"
import ClickUp from "../../src/providers/click-up.js"
import Coinbase from "../../src/providers/coinbase.js"
import Concept2 from "../../src/providers/concept2.js"
import Descope from "../../src/providers/descope.js"
import Dribbble from "../../src/providers/dribbble.js"
import DuendeIdentityServer6 from "../../src/providers/duende-identity-server6.js"
import Eventbrite from "../../src/providers/eventbrite.js"
import EVEOnline from "../../src/providers/eveonline.js"
import FACEIT from "../../src/providers/faceit.js"
import Figma from "../../src/providers/figma.js"
import Foursquare from "../../src/providers/foursquare.js"
import Freshbooks from "../../src/providers/freshbooks.js"
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
import { conformHook, endpointParams, endpointURL, fakeFetch, mapProfile, requestContext, requestHook } from "./helpers.js"
import { PROFILES, STANDARD_CLAIMS } from "./profile-fixtures.js"

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
    const fixture = PROFILES.github
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
    const fixture = PROFILES.google
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
    const fixture = PROFILES.apple
    expect(await mapProfile(config, fixture)).toEqual({ id: "001234.abcdef0123456789.1234", name: null, email: "x9k2@privaterelay.appleid.com", image: null })
    const withUser = { ...fixture, user: { name: { firstName: "Ada", lastName: "Lovelace" }, email: "x9k2@privaterelay.appleid.com" } }
    expect(await mapProfile(config, withUser)).toMatchObject({ name: "Ada Lovelace" })
    expect(await mapProfile(config, { ...fixture, user: { name: { firstName: "Ada" } } })).toMatchObject({ name: "Ada" })
  })
  it("asks for name and email by form_post at the discovered endpoint, checks a nonce, and authenticates in the body", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://appleid.apple.com", checks: ["nonce", "state"], client: { token_endpoint_auth_method: "client_secret_post" } })
    expect(config.authorization).toEqual({ params: { scope: "name email", response_mode: "form_post" } })
  })
})

describe("Microsoft Entra ID", () => {
  it("maps the ID token claims", async () => {
    const fixture = PROFILES["microsoft-entra-id"]
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
    const fixture = PROFILES.gitlab
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
  const fixture = PROFILES.discord
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
    const fixture = PROFILES.slack
    expect(await mapProfile(config, fixture)).toEqual({ id: "U0R7JM", name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/abc.jpg" })
  })
  it("discovers from slack.com", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://slack.com", checks: ["nonce"] })
  })
})

describe("Twitter", () => {
  const config = Twitter(credentials)
  it("maps the user under data", async () => {
    const fixture = PROFILES.twitter
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
    const fixture = PROFILES.facebook
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
    const fixture = PROFILES.linkedin
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
    const fixture = PROFILES.twitch
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
    const fixture = PROFILES.spotify
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
  ["Auth0", Auth0, "https://dev-abc123.us.auth0.com/", PROFILES.auth0, "ada@example.com", "ada"],
  ["Okta", Okta, "https://dev-123456.okta.com/oauth2/default", PROFILES.okta, "Ada Lovelace", "ada@example.com"],
  ["Keycloak", Keycloak, "https://keycloak.example.com/realms/acme", PROFILES.keycloak, "Ada Lovelace", "ada"],
  ["Cognito", Cognito, "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123", PROFILES.cognito, "Ada Lovelace", "ada"],
  ["Zitadel", Zitadel, "https://acme-xyz.zitadel.cloud", PROFILES.zitadel, "Ada Lovelace", "ada@acme.zitadel.cloud"],
  ["Authentik", Authentik, "https://authentik.example.com/application/o/my-app/", PROFILES.authentik, "Ada Lovelace", "ada"],
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
    const fixture = PROFILES.reddit
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
    const fixture = PROFILES.notion
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
    const fixture = PROFILES.dropbox
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
    const fixture = PROFILES.bitbucket
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
    const fixture = PROFILES.strava
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
    const fixture = PROFILES.zoom
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
    const fixture = PROFILES.atlassian
    expect(await mapProfile(config, fixture)).toEqual({ id: "112233aa-bb11-cc22-33dd-445566abcabc", name: "Mia Krystof", email: "mia@example.com", image: fixture.picture })
  })
  it("asks the API gateway audience for read:me, with consent", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://auth.atlassian.com/authorize", scope: "read:me" })
    expect(endpointParams(config.authorization)).toMatchObject({ audience: "api.atlassian.com", prompt: "consent" })
    expect(url(config.token)).toBe("https://auth.atlassian.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://api.atlassian.com/me")
  })
})

describe("42 School", () => {
  const config = FortyTwo(credentials)
  it("maps /v2/me: the chosen full name, the picture's link, the numeric id as a string", async () => {
    const fixture = PROFILES["42-school"]
    expect(await mapProfile(config, fixture)).toEqual({ id: "87241", name: "Ada Lovelace", email: "alovelac@student.42.fr", image: "https://cdn.intra.42.fr/users/1a2b/alovelac.jpg" })
    expect(await mapProfile(config, { ...fixture, image: { link: null, versions: {} } })).toMatchObject({ image: null })
  })
  it("asks the intranet for the public scope", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://api.intra.42.fr/oauth/authorize", scope: "public" })
    expect(url(config.token)).toBe("https://api.intra.42.fr/oauth/token")
    expect(url(config.userinfo)).toBe("https://api.intra.42.fr/v2/me")
  })
})

// Auth.js's providers frontegg..osu (issue 35).

describe("Kakao", () => {
  const config = Kakao(credentials)
  const fixture = PROFILES.kakao
  it("maps /v2/user/me's kakao_account, stringifying the numeric id", async () => {
    expect(await mapProfile(config, fixture)).toEqual({ id: "2134567890", name: "라이언", email: "ryan@kakao.test", image: "https://k.kakaocdn.net/dn/ryan/img_640x640.jpg" })
    expect(await mapProfile(config, { id: 1 })).toEqual({ id: "1", name: null, email: null, image: null })
  })
  it("sends an empty scope and authenticates in the body", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://kauth.kakao.com/oauth/authorize", scope: "" })
    expect(url(config.token)).toBe("https://kauth.kakao.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://kapi.kakao.com/v2/user/me")
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
})

describe("Naver", () => {
  const config = Naver(credentials)
  it("maps the user under response", async () => {
    const fixture = PROFILES.naver
    expect(await mapProfile(config, fixture)).toEqual({ id: "32742776", name: "OpenAPI", email: "openapi@naver.com", image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif" })
    expect(await mapProfile(config, { resultcode: "00", message: "success", response: { id: "1" } })).toEqual({ id: "1", name: null, email: null, image: null })
  })
  it("asks nid.naver.com, with the default scope", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://nid.naver.com/oauth2.0/authorize", scope: null })
    expect(url(config.token)).toBe("https://nid.naver.com/oauth2.0/token")
    expect(url(config.userinfo)).toBe("https://openapi.naver.com/v1/nid/me")
  })
})

describe("Instagram", () => {
  const config = Instagram(credentials)
  it("maps the Graph API user: the username, no email or picture", async () => {
    expect(await mapProfile(config, PROFILES.instagram)).toEqual({ id: "17841405793187218", name: "jayposiris", email: null, image: null })
  })
  it("asks for user_profile, authenticates in the body and names the fields it reads", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://api.instagram.com/oauth/authorize", scope: "user_profile" })
    expect(url(config.token)).toBe("https://api.instagram.com/oauth/access_token")
    expect(url(config.userinfo)).toBe("https://graph.instagram.com/me?fields=id,username,account_type,name")
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
  it("adds token_type bearer to a token response without one, and leaves others alone", async () => {
    const conform = conformHook(config.token)
    const fixed = (await conform(Response.json({ access_token: "IGQVJ", user_id: 17841405793187218 }))) as Response
    expect(await fixed.json()).toEqual({ access_token: "IGQVJ", user_id: 17841405793187218, token_type: "bearer" })
    expect(await conform(Response.json({ access_token: "IGQVJ", token_type: "Bearer" }))).toBeUndefined()
    expect(await conform(Response.json({ error_type: "OAuthException", code: 400, error_message: "Invalid code" }, { status: 400 }))).toBeUndefined()
  })
})

describe("HubSpot", () => {
  const config = HubSpot(credentials)
  it("maps the token information: the email address as name and email, the numeric user id as a string", async () => {
    const fixture = PROFILES.hubspot
    expect(await mapProfile(config, fixture)).toEqual({ id: "123", name: "ada@hubspot.test", email: "ada@hubspot.test", image: null })
  })
  it("asks for the oauth scope and authenticates in the body", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://app.hubspot.com/oauth/authorize", scope: "oauth" })
    expect(url(config.token)).toBe("https://api.hubapi.com/oauth/v1/token")
    expect(url(config.userinfo)).toBe("https://api.hubapi.com/oauth/v1/access-tokens")
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
  it("puts the token, encoded, in the lookup's path, and fails on a refusal without naming the token", async () => {
    const { fetch, calls } = fakeFetch({ "https://api.hubapi.com/oauth/v1/access-tokens/a%2Fb%3Fc": { user: "ada@hubspot.test", user_id: 1 } })
    expect(await requestHook(config.userinfo)(requestContext(config, fetch, { access_token: "a/b?c" }))).toEqual({ user: "ada@hubspot.test", user_id: 1 })
    expect(calls[0]!.headers.get("authorization")).toBeNull()
    const refused = fakeFetch({})
    const error = (await Promise.resolve(requestHook(config.userinfo)(requestContext(config, refused.fetch, { access_token: "secret-token" }))).catch((caught: unknown) => caught)) as Error
    expect(error.message).toMatch(/404/)
    expect(error.message).not.toContain("secret-token")
  })
})

describe("Mail.ru", () => {
  const config = Mailru(credentials)
  it("maps /userinfo as Auth.js's default mapping does: the name, else the nickname", async () => {
    const fixture = PROFILES.mailru
    expect(await mapProfile(config, fixture)).toEqual({ id: "1734604429", name: "Бернар", email: "bernard@mail.test", image: null })
    expect(await mapProfile(config, { ...fixture, name: "Бернар Бердикул" })).toMatchObject({ name: "Бернар Бердикул" })
  })
  it("asks for userinfo", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://oauth.mail.ru/login", scope: "userinfo" })
    expect(url(config.token)).toBe("https://oauth.mail.ru/token")
    expect(url(config.userinfo)).toBe("https://oauth.mail.ru/userinfo")
  })
  it("fails on a refused lookup without naming the token", async () => {
    const { fetch } = fakeFetch({})
    const error = (await Promise.resolve(requestHook(config.userinfo)(requestContext(config, fetch, { access_token: "secret-token" }))).catch((caught: unknown) => caught)) as Error
    expect(error.message).toMatch(/404/)
    expect(error.message).not.toContain("secret-token")
  })
})

describe("Mailchimp", () => {
  const config = Mailchimp(credentials)
  it("maps /oauth2/metadata: the login's id and email, the account's name", async () => {
    const fixture = PROFILES.mailchimp
    expect(await mapProfile(config, fixture)).toEqual({ id: "12345", name: "Acme Inc", email: "ada@acme.test", image: null })
  })
  it("asks login.mailchimp.com", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://login.mailchimp.com/oauth2/authorize", scope: null })
    expect(url(config.token)).toBe("https://login.mailchimp.com/oauth2/token")
    expect(url(config.userinfo)).toBe("https://login.mailchimp.com/oauth2/metadata")
  })
})

describe("Medium", () => {
  const config = Medium(credentials)
  it("maps the user under data", async () => {
    const fixture = PROFILES.medium
    expect(await mapProfile(config, fixture)).toEqual({ id: "5303d74c64f66366f00cb9b2a94f3251bf5", name: "Jamie Talbot", email: null, image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png" })
  })
  it("asks for basicProfile", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://medium.com/m/oauth/authorize", scope: "basicProfile" })
    expect(url(config.token)).toBe("https://api.medium.com/v1/tokens")
    expect(url(config.userinfo)).toBe("https://api.medium.com/v1/me")
  })
})

describe("Netlify", () => {
  const config = Netlify(credentials)
  it("maps /api/v1/user", async () => {
    const fixture = PROFILES.netlify
    expect(await mapProfile(config, fixture)).toEqual({ id: "5a1f3b8e7c5d", name: "Ada Lovelace", email: "ada@netlify.test", image: "https://avatars.netlify.test/ada.png" })
    expect(await mapProfile(config, { ...fixture, full_name: null, avatar_url: null })).toMatchObject({ name: null, image: null })
  })
  it("sends an empty scope", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://app.netlify.com/authorize", scope: "" })
    expect(url(config.token)).toBe("https://api.netlify.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://api.netlify.com/api/v1/user")
  })
})

describe("osu!", () => {
  const config = Osu(credentials)
  it("maps /api/v2/me, stringifying the numeric id; osu! has no email", async () => {
    const fixture = PROFILES.osu
    expect(await mapProfile(config, fixture)).toEqual({ id: "2", name: "peppy", email: null, image: "https://a.ppy.sh/2?1519081077.png" })
  })
  it("asks for identify", () => {
    expect(config.name).toBe("osu!")
    expect(authorizationShape(config)).toEqual({ endpoint: "https://osu.ppy.sh/oauth/authorize", scope: "identify" })
    expect(url(config.token)).toBe("https://osu.ppy.sh/oauth/token")
    expect(url(config.userinfo)).toBe("https://osu.ppy.sh/api/v2/me")
  })
})

describe("Logto", () => {
  it("maps the ID token, falling back to the username for the name", async () => {
    const config = Logto({ ...credentials, issuer: "https://tenant.logto.app/oidc" })
    const fixture = PROFILES.logto
    expect(await mapProfile(config, fixture)).toEqual({ id: "u1a2b3c4d5", name: "Ada Lovelace", email: "ada@logto.test", image: "https://tenant.logto.app/ada.png" })
    expect(await mapProfile(config, { ...fixture, name: null, picture: null })).toMatchObject({ name: "ada", image: null })
  })
  it("asks for a refresh token too, from its issuer", () => {
    const config = Logto({ ...credentials, issuer: "https://tenant.logto.app/oidc" })
    expect(config).toMatchObject({ type: "oidc", issuer: "https://tenant.logto.app/oidc" })
    expect(endpointParams(config.authorization)).toEqual({ scope: "offline_access openid email profile" })
  })
})

describe("FusionAuth", () => {
  const config = FusionAuth({ ...credentials, issuer: "https://auth.example.test/" })
  const fixture = PROFILES.fusionauth
  it("maps the ID token, building a name from its parts when there is no name or username", async () => {
    expect(await mapProfile(config, { ...fixture, name: "Richard Hendricks", preferred_username: "richard" })).toEqual({ id: fixture.sub, name: "Richard Hendricks", email: "richard@fusionauth.test", image: "https://auth.example.test/richard.png" })
    expect(await mapProfile(config, { ...fixture, preferred_username: "richard" })).toMatchObject({ name: "richard" })
    expect(await mapProfile(config, { ...fixture, given_name: "Richard", middle_name: "P.", family_name: "Hendricks" })).toMatchObject({ name: "Richard P. Hendricks" })
    expect(await mapProfile(config, { ...fixture, picture: undefined })).toMatchObject({ name: null, image: null })
  })
  it("puts the token and userinfo endpoints under the issuer, and asks for a refresh token with PKCE and state", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://auth.example.test/", checks: ["pkce", "state"] })
    expect(url(config.token)).toBe("https://auth.example.test/oauth2/token")
    expect(url(config.userinfo)).toBe("https://auth.example.test/oauth2/userinfo")
    expect(config.authorization).toEqual({ params: { scope: "openid offline_access email profile" } })
    expect(FusionAuth({ issuer: "https://auth.example.test", tenantId: "t-1" }).authorization).toEqual({ params: { scope: "openid offline_access email profile", tenantId: "t-1" } })
    expect(FusionAuth({ tenantId: "t-1" })).not.toHaveProperty("tenantId")
  })
})

describe("NetSuite", () => {
  const RESTLET = "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1"
  it("maps what the RESTlet returns, stringifying the numeric id", async () => {
    const config = NetSuite({ ...credentials, accountID: "1234567", userinfo: RESTLET })
    expect(await mapProfile(config, PROFILES.netsuite)).toEqual({ id: "42", name: "Ada Lovelace", email: "ada@netsuite.test", image: null })
  })
  it("puts the endpoints on the account's domains, written as NetSuite writes them", () => {
    const config = NetSuite({ ...credentials, accountID: "TSTDRV1234567_SB1", userinfo: RESTLET, scope: "restlets", prompt: "login consent" })
    expect(authorizationShape(config)).toEqual({ endpoint: "https://tstdrv1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl", scope: "restlets" })
    expect(endpointParams(config.authorization)).toEqual({ scope: "restlets", prompt: "login consent" })
    expect(url(config.token)).toBe("https://tstdrv1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token")
    expect(url(config.userinfo)).toBe(RESTLET)
    expect(config.checks).toEqual(["state"])
    for (const option of ["accountID", "scope", "prompt"]) expect(config).not.toHaveProperty(option)
  })
  it("keeps its RESTlet hook when userinfo is given as an object", () => {
    const config = NetSuite({ accountID: "1234567", userinfo: { url: RESTLET } })
    expect(config.userinfo).toMatchObject({ url: RESTLET, request: expect.any(Function) })
  })
  it.each(["1234567.evil.test", "acme/..", "", "1234567#"])("refuses the accountID %j, which would put the endpoints elsewhere", (accountID) => {
    expect(() => NetSuite({ accountID })).toThrow(InvalidConfig)
  })
})

describe("Nextcloud", () => {
  it("maps the provisioning API's user, with the server's avatar URL", async () => {
    const config = Nextcloud({ ...credentials, issuer: "https://cloud.example.test/" })
    const fixture = PROFILES.nextcloud
    expect(await mapProfile(config, fixture)).toEqual({ id: "frank", name: "Frank K.", email: "frank@cloud.test", image: "https://cloud.example.test/avatar/frank/512" })
    expect(await mapProfile(config, { ...fixture, id: "frank k", email: null })).toMatchObject({ email: null, image: "https://cloud.example.test/avatar/frank%20k/512" })
  })
  it("fails when the token response names no user", async () => {
    const config = Nextcloud({ ...credentials, issuer: "https://cloud.example.test" })
    const { fetch, calls } = fakeFetch({})
    await expect(async () => requestHook(config.userinfo)(requestContext(config, fetch, { access_token: "at" }))).rejects.toThrow(/user_id/)
    expect(calls).toEqual([])
  })
})

describe("Mastodon, Mattermost", () => {
  it("Mastodon maps the account: its username and static avatar, no email", async () => {
    const fixture = PROFILES.mastodon
    expect(await mapProfile(Mastodon({ issuer: "https://mastodon.social" }), fixture)).toEqual({ id: "109348", name: "gargron", email: null, image: "https://files.mastodon.social/a.png" })
  })
  it("Mattermost maps the user: the username, else first and last name", async () => {
    const config = Mattermost({ issuer: "https://chat.example.test" })
    const fixture = PROFILES.mattermost
    expect(await mapProfile(config, fixture)).toEqual({ id: "ibzkpfi6sjfyipm5ogwn6mxtxr", name: "ada", email: "ada@chat.test", image: null })
    const { username: _omit, ...nameless } = fixture
    expect(await mapProfile(config, nameless)).toMatchObject({ name: "Ada Lovelace" })
  })
  it("Mattermost keeps the server's URL out of the provider, as Auth.js does", () => {
    expect(Mattermost({ issuer: "https://chat.example.test" })).not.toHaveProperty("issuer")
  })
})

describe("Osso", () => {
  it("maps /oauth/me: the id and the asserted email", async () => {
    const fixture = PROFILES.osso
    expect(await mapProfile(Osso({ issuer: "https://demo.ossoapp.com" }), fixture)).toEqual({ id: fixture.id, name: null, email: "ada@acme.test", image: null })
  })
  it.each(["https://demo.ossoapp.com/", "https://demo.ossoapp.com", "demo.ossoapp.com"])("puts the endpoints under the instance %j", (issuer) => {
    const config = Osso({ issuer })
    expect(url(config.authorization)).toBe("https://demo.ossoapp.com/oauth/authorize")
    expect(url(config.token)).toBe("https://demo.ossoapp.com/oauth/token")
    expect(url(config.userinfo)).toBe("https://demo.ossoapp.com/oauth/me")
  })
})

describe("instance-relative endpoints", () => {
  it.each([
    ["Mastodon", Mastodon, "https://mastodon.example/", ["https://mastodon.example/oauth/authorize?scope=read", "https://mastodon.example/oauth/token", "https://mastodon.example/api/v1/accounts/verify_credentials"]],
    ["Mattermost", Mattermost, "https://chat.example/", ["https://chat.example/oauth/authorize", "https://chat.example/oauth/access_token", "https://chat.example/api/v4/users/me"]],
    ["Nextcloud", Nextcloud, "https://cloud.example/", ["https://cloud.example/apps/oauth2/authorize", "https://cloud.example/apps/oauth2/api/v1/token", "https://cloud.example/ocs/v1.php/cloud/users"]],
    ["Frontegg", Frontegg, "https://app-abc.frontegg.com/", ["https://app-abc.frontegg.com/oauth/authorize", "https://app-abc.frontegg.com/oauth/token", "https://app-abc.frontegg.com/identity/resources/users/v2/me"]],
  ] as const)("%s builds its endpoints from issuer, with or without a trailing slash", (_name, factory, issuer, endpoints) => {
    for (const given of [issuer, issuer.slice(0, -1)]) {
      const config = factory({ ...credentials, issuer: given })
      expect([config.authorization, config.token, config.userinfo].map((endpoint) => url(endpoint))).toEqual(endpoints)
    }
  })

  it.each([
    ["Mastodon", Mastodon({}), "authorization"],
    ["Mattermost", Mattermost({}), "authorization"],
    ["Nextcloud", Nextcloud({}), "authorization"],
    ["Osso", Osso({}), "authorization"],
    ["Frontegg", Frontegg({}), "authorization"],
    ["NetSuite without accountID", NetSuite({ userinfo: "https://1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1" }), "authorization"],
    ["NetSuite without userinfo", NetSuite({ accountID: "1234567" }), "userinfo"],
  ] as const)("%s without what places its endpoints is refused at startup, naming what is missing", (_name, provider, missing) => {
    const { error } = assertConfig(resolveConfig({ secret: "s".repeat(32), trustHost: true, providers: [provider] }, {}), { url: "https://app.test/auth/session" })
    expect(error?.type).toBe("InvalidEndpoints")
    expect(error?.message).toContain(`\`${missing}\``)
  })
})

describe.each([
  ["Asgardeo", Asgardeo, "https://api.asgardeo.io/t/acme/oauth2/token", PROFILES.asgardeo, "ada"],
  ["Descope", Descope, "https://api.descope.com/P2aBcDeFgHiJkLmN", PROFILES.descope, null],
  ["DuendeIdentityServer6", DuendeIdentityServer6, "https://demo.duendesoftware.com", PROFILES["duende-identity-server6"], "bob"],
] as const)("%s", (_name, factory, issuer, fixture, fallbackName) => {
  it("maps the ID token claims as Auth.js's default mapping does", async () => {
    const config = factory({ ...credentials, issuer })
    expect(config).toMatchObject({ type: "oidc", issuer })
    const user = await mapProfile(config, fixture)
    expect(user).toEqual({ id: fixture.sub, name: "name" in fixture ? fixture.name : fallbackName, email: fixture.email, image: fixture.picture })
    const { name: _omit, ...nameless } = fixture as { name?: string }
    expect(await mapProfile(config, nameless)).toMatchObject({ name: fallbackName })
  })
})

describe("Descope issuer", () => {
  it("is the project's, from the client id, unless one is given", () => {
    expect(Descope({ clientId: "P2aBcDeF", clientSecret: "k" }).issuer).toBe("https://api.descope.com/P2aBcDeF")
    expect(Descope({ clientId: "P2aBcDeF", issuer: "https://auth.acme.example/P2aBcDeF" }).issuer).toBe("https://auth.acme.example/P2aBcDeF")
    expect(Descope().issuer).toBeUndefined()
    expect(Descope().checks).toEqual(["pkce", "state"])
  })
})

describe("Azure AD (deprecated alias of Microsoft Entra ID)", () => {
  it("is Microsoft Entra ID under the id azure-ad and its old name, user options first", async () => {
    const alias = AzureAD({ ...credentials, tenantId: "contoso.onmicrosoft.com" })
    const entra = MicrosoftEntraID({ ...credentials, tenantId: "contoso.onmicrosoft.com" })
    expect(alias).toMatchObject({ id: "azure-ad", name: "Azure Active Directory", type: "oidc", issuer: "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0" })
    expect(alias.style).toEqual(entra.style)
    expect(typeof alias.idTokenIssuer).toBe("function")
    const claims = PROFILES["azure-ad"]
    expect(await mapProfile(alias, claims)).toEqual(await mapProfile(entra, claims))
    expect(AzureAD({ id: "entra", name: "Work account" })).toMatchObject({ id: "entra", name: "Work account" })
  })
  it("reads AUTH_AZURE_AD_ID, _SECRET and _ISSUER", () => {
    const env = { AUTH_AZURE_AD_ID: "aad-id", AUTH_AZURE_AD_SECRET: "aad-secret", AUTH_AZURE_AD_ISSUER: "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0" }
    expect(providerWithEnv(AzureAD, env)).toMatchObject({ id: "azure-ad", clientId: "aad-id", clientSecret: "aad-secret", issuer: env.AUTH_AZURE_AD_ISSUER })
  })
})

describe("Azure AD B2C", () => {
  const claims = PROFILES["azure-ad-b2c"]
  it("maps the claims, the first of the email addresses as the email", async () => {
    const config = AzureADB2C({ ...credentials, issuer: "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0" })
    expect(await mapProfile(config, claims)).toEqual({ id: claims.sub, name: "Ada Lovelace", email: "ada@example.com", image: null })
    const { name: _omit, emails: _none, ...bare } = claims
    expect(await mapProfile(config, { ...bare, preferred_username: "ada" })).toEqual({ id: claims.sub, name: "ada", email: null, image: null })
  })
  it("builds the user flow's authority from tenantId and primaryUserFlow, unless issuer is given", () => {
    expect(AzureADB2C({ tenantId: "contoso", primaryUserFlow: "B2C_1_signupsignin" }).issuer).toBe("https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin/v2.0")
    expect(AzureADB2C({ tenantId: "contoso", primaryUserFlow: "B2C_1_x", issuer: "https://login.contoso.example/tfp/contoso/B2C_1_x/v2.0" }).issuer).toBe("https://login.contoso.example/tfp/contoso/B2C_1_x/v2.0")
    expect(AzureADB2C({ tenantId: "contoso" }).issuer).toBeUndefined()
    expect(AzureADB2C({ tenantId: "contoso", primaryUserFlow: "B2C_1_x" })).not.toHaveProperty("tenantId")
  })
})

describe("Azure DevOps", () => {
  const config = AzureDevOpsProvider(credentials)
  it("maps the profile, the avatar as a data URL", async () => {
    const fixture = PROFILES["azure-devops"]
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.id, name: "Ada Lovelace", email: "ada@example.com", image: "data:image/jpeg;base64,iVBORw0KGgo=" })
    expect(await mapProfile(config, { ...fixture, coreAttributes: {} })).toMatchObject({ image: null })
  })
  it("asks for an Assertion response with vso.profile (or the scope option), and names the token endpoint", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://app.vssps.visualstudio.com/oauth2/authorize", scope: "vso.profile" })
    expect(endpointParams(config.authorization)).toMatchObject({ response_type: "Assertion" })
    expect(authorizationShape(AzureDevOpsProvider({ scope: "vso.profile vso.code" })).scope).toBe("vso.profile vso.code")
    expect(AzureDevOpsProvider({ scope: "vso.code" })).not.toHaveProperty("scope")
    expect(url(config.token)).toBe("https://app.vssps.visualstudio.com/oauth2/token")
    expect(url(config.userinfo)).toBe("https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0")
    expect(config.checks).toEqual(["state"])
  })
})

describe("BankID Norway", () => {
  const config = BankIDNorway(credentials)
  it("maps the userinfo claims", async () => {
    const fixture = PROFILES["bankid-no"]
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.sub, name: "Ada Lovelace", email: "ada@example.no", image: null })
    const { email: _omit, ...addressless } = fixture
    expect(await mapProfile(config, addressless)).toMatchObject({ email: null })
  })
  it("discovers BankID's realm, reads a signed userinfo, authenticates in the body and checks PKCE, state and nonce", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://auth.bankid.no/auth/realms/prod", idToken: false, checks: ["pkce", "state", "nonce"] })
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post", userinfo_signed_response_alg: "RS256" })
    expect(endpointParams(config.authorization)).toEqual({ ui_locales: "no", login_hint: "BIS" })
  })
})

describe("Battle.net", () => {
  it("maps the BattleTag as the name", async () => {
    const fixture = PROFILES.battlenet
    expect(await mapProfile(BattleNet(credentials), fixture)).toEqual({ id: "100000001", name: "Ada#1815", email: null, image: null })
  })
  it("discovers the global issuer by default and a regional one when given, with PKCE", () => {
    expect(BattleNet(credentials)).toMatchObject({ type: "oidc", issuer: "https://oauth.battle.net" })
    expect(BattleNet(credentials).checks).toBeUndefined()
    expect(BattleNet({ ...credentials, issuer: "https://eu.battle.net/oauth" }).issuer).toBe("https://eu.battle.net/oauth")
    expect((providerWithEnv(BattleNet, { AUTH_BATTLENET_ISSUER: "https://kr.battle.net/oauth" }) as OAuthConfig).issuer).toBe("https://kr.battle.net/oauth")
  })
})

describe("Beyond Identity", () => {
  it("maps the ID token claims, the user name when there is no name", async () => {
    const config = BeyondIdentity({ ...credentials, issuer: "https://auth-us.beyondidentity.com/v1/tenants/00012/realms/abc/applications/def" })
    const fixture = PROFILES.beyondidentity
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.sub, name: "Ada Lovelace", email: "ada@example.com", image: null })
    expect(await mapProfile(config, { ...fixture, name: undefined })).toMatchObject({ name: "ada" })
  })
})

describe("Box", () => {
  const config = Box(credentials)
  it("maps /2.0/users/me, the login as the email", async () => {
    const fixture = PROFILES.box
    expect(await mapProfile(config, fixture)).toEqual({ id: "11446498", name: "Aaron Levie", email: "ceo@example.com", image: fixture.avatar_url })
  })
  it("uses Box's endpoints", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://account.box.com/api/oauth2/authorize", scope: null })
    expect(url(config.token)).toBe("https://api.box.com/oauth2/token")
    expect(url(config.userinfo)).toBe("https://api.box.com/2.0/users/me")
  })
})

describe("BoxyHQ SAML", () => {
  it("maps Jackson's userinfo, joining first and last name", async () => {
    const config = SAMLJackson({ ...credentials, issuer: "https://jackson.example.com" })
    const fixture = PROFILES["boxyhq-saml"]
    expect(await mapProfile(config, fixture)).toEqual({ id: "ada@example.com", name: "Ada Lovelace", email: "ada@example.com", image: null })
    expect(await mapProfile(config, { id: "x", email: "x@example.com" })).toMatchObject({ name: null })
  })
  it("puts the three endpoints under the issuer, with provider=saml", () => {
    const config = SAMLJackson({ ...credentials, issuer: "https://jackson.example.com/" })
    expect(config.issuer).toBe("https://jackson.example.com")
    expect(endpointURL(config.authorization).href).toBe("https://jackson.example.com/api/oauth/authorize?provider=saml")
    expect(url(config.token)).toBe("https://jackson.example.com/api/oauth/token")
    expect(url(config.userinfo)).toBe("https://jackson.example.com/api/oauth/userinfo")
  })
  it("builds them from AUTH_BOXYHQ_SAML_ISSUER when listed bare, and names none without an issuer", () => {
    const fromEnv = providerWithEnv(SAMLJackson, { AUTH_BOXYHQ_SAML_ISSUER: "https://sso.acme.example" }) as OAuthConfig
    expect(url(fromEnv.token)).toBe("https://sso.acme.example/api/oauth/token")
    const bare = SAMLJackson()
    expect(bare.token).toBeUndefined()
    expect(bare.userinfo).toBeUndefined()
    expect(bare.authorization).toEqual({ params: { provider: "saml" } })
  })
})

describe("Bungie", () => {
  const config = Bungie({ ...credentials, apiKey: "key" })
  it("maps the Bungie.net account of the memberships answer, the avatar on www.bungie.net", async () => {
    const fixture = PROFILES.bungie
    expect(await mapProfile(config, fixture)).toEqual({ id: "20315338", name: "Ada", email: null, image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif" })
    const relative = { ...fixture, Response: { bungieNetUser: { ...fixture.Response.bungieNetUser, profilePicturePath: "img/a.png" } } }
    expect(await mapProfile(config, relative)).toMatchObject({ image: "https://www.bungie.net/img/a.png" })
  })
  it("asks Bungie to re-authenticate, and keeps its options out of the config", () => {
    expect(endpointURL(config.authorization).href).toBe("https://www.bungie.net/en/OAuth/Authorize?reauth=true")
    expect(url(config.token)).toBe("https://www.bungie.net/platform/app/oauth/token/")
    expect(config).not.toHaveProperty("apiKey")
    expect(config).not.toHaveProperty("headers")
  })
})

describe("ClickUp", () => {
  const config = ClickUp(credentials)
  it("maps the user, the profile picture as the image", async () => {
    const fixture = PROFILES["click-up"]
    expect(await mapProfile(config, fixture)).toEqual({ id: "183", name: "John Doe", email: "john@example.com", image: fixture.user.profilePicture })
  })
  it("uses state, no scope, and authenticates in the body", () => {
    expect(config.checks).toEqual(["state"])
    expect(endpointURL(config.authorization).href).toBe("https://app.clickup.com/api")
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
})

describe.each([
  ["Passage", Passage, PROFILES.passage, { id: "pzBa1Bd5Ud", name: null, email: "ada@example.com", image: null }],
  ["Ping Identity", PingId, PROFILES["ping-id"], { id: "4e4c5f1a-0b5d-4a7e", name: "Ada Lovelace", email: "ada@example.com", image: "https://cdn.example/ada.png" }],
  ["United Effects", UnitedEffects, PROFILES["united-effects"], { id: "d1b5a8c0-ue", name: null, email: "ada@example.com", image: null }],
  ["Vipps", Vipps, PROFILES.vipps, { id: "c06c4afe-d9e1-4c5d-939a-177d752a0944", name: "Ada Lovelace", email: "ada@example.no", image: null }],
] as const)("%s", (_name, factory, fixture, user) => {
  it("maps the standard claims", async () => {
    expect(await mapProfile(factory({ ...credentials, issuer: "https://issuer.example" }), fixture)).toEqual(user)
  })
})

describe("Roblox", () => {
  const config = Roblox(credentials)
  it("maps the ID token, with the display name and headshot", async () => {
    const fixture = PROFILES.roblox
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
    const fixture = PROFILES.salesforce
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.sub, name: "Ada Lovelace", email: "ada@acme.com", image: "https://acme.my.salesforce.com/profilephoto/005/F" })
    expect(await mapProfile(config, { ...fixture, name: undefined })).toMatchObject({ name: "ada" })
  })
  it("discovers from login.salesforce.com and reads the profile from userinfo, with every check", () => {
    expect(config).toMatchObject({ type: "oidc", issuer: "https://login.salesforce.com", idToken: false, checks: ["pkce", "state", "nonce"] })
  })
})

describe("SimpleLogin", () => {
  it("maps the claims with the avatar", async () => {
    const fixture = PROFILES.simplelogin
    expect(await mapProfile(SimpleLogin(credentials), fixture)).toEqual({ id: "1", name: "Ada", email: "alias.ada@simplelogin.com", image: "https://app.simplelogin.io/avatar.png" })
    expect(await mapProfile(SimpleLogin(credentials), { ...fixture, avatar_url: undefined })).toMatchObject({ image: null })
  })
})

describe("Patreon", () => {
  const config = Patreon(credentials)
  it("maps the user under data.attributes", async () => {
    const fixture = PROFILES.patreon
    expect(await mapProfile(config, fixture)).toEqual({ id: "32187", name: "Ada Lovelace", email: "ada@example.com", image: "https://c8.patreon.com/2/200/32187" })
  })
  it("asks for identity and identity[email]", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.patreon.com/oauth2/authorize", scope: "identity identity[email]" })
    expect(url(config.userinfo)).toBe("https://www.patreon.com/api/oauth2/api/current_user")
  })
})

describe("Pinterest", () => {
  it("keys the account by its username and gives no email", async () => {
    const fixture = PROFILES.pinterest
    expect(await mapProfile(Pinterest(credentials), fixture)).toEqual({ id: "adalovelace", name: "adalovelace", email: null, image: "https://i.pinimg.com/280x280_RS/ab/cd.jpg" })
  })
})

describe("Pipedrive", () => {
  it("maps the user under data, stringifying the numeric id", async () => {
    const fixture = PROFILES.pipedrive
    expect(await mapProfile(Pipedrive(credentials), fixture)).toEqual({ id: "777", name: "James Bond", email: "james@example.com", image: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120.jpg" })
    expect(await mapProfile(Pipedrive(credentials), { success: true, data: { ...fixture.data, icon_url: null } })).toMatchObject({ image: null })
  })
})

describe("Threads", () => {
  it("maps the user under data, giving no email", async () => {
    const config = Threads(credentials)
    expect(await mapProfile(config, PROFILES.threads)).toEqual({ id: "17841405793187218", name: "threadsapitestuser", email: null, image: "https://scontent.cdninstagram.com/1.jpg" })
    expect(await mapProfile(config, { data: { id: "1" } })).toEqual({ id: "1", name: null, email: null, image: null })
  })
})

describe("TikTok", () => {
  it("maps the user under data.user, giving no email", async () => {
    const fixture = PROFILES.tiktok
    expect(await mapProfile(TikTok(credentials), fixture)).toEqual({ id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", name: "Tik Toker", email: null, image: "https://p19-sign.tiktokcdn-us.com/avatar.jpeg" })
  })
})

describe("Todoist", () => {
  it("maps the synced user", async () => {
    const fixture = PROFILES.todoist
    expect(await mapProfile(Todoist(credentials), fixture)).toEqual({ id: "2671355", name: "Ada Todo", email: "me@example.com", image: "https://dcff1xvirvpfp.cloudfront.net/big.jpg" })
    expect(await mapProfile(Todoist(credentials), { ...fixture, avatar_big: null })).toMatchObject({ image: null })
  })
})

describe("Trakt", () => {
  it("keys the user by their slug, as Auth.js does, and gives no email", async () => {
    const fixture = PROFILES.trakt
    expect(await mapProfile(Trakt(credentials), fixture)).toEqual({ id: "sean", name: "Sean Rudford", email: null, image: "https://walter.trakt.tv/avatars/large/cf4e7a2d8a.jpg" })
    expect(await mapProfile(Trakt(credentials), { ...fixture, name: "", images: {} })).toMatchObject({ name: "sean", image: null })
  })
})

describe("VK", () => {
  const config = VK(credentials)
  it("maps users.get's user with the email from the token response, stringifying the numeric id", async () => {
    const fixture = PROFILES.vk
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

describe("Coinbase", () => {
  const config = Coinbase(credentials)
  it("maps the user under data", async () => {
    const fixture = PROFILES.coinbase
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.data.id, name: "User One", email: "user1@example.com", image: fixture.data.avatar_url })
  })
  it("asks for the email and read scopes", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://login.coinbase.com/oauth2/auth", scope: "wallet:user:email wallet:user:read" })
  })
})

describe("Concept2", () => {
  const config = Concept2(credentials)
  it("maps the user under data", async () => {
    const fixture = PROFILES.concept2
    expect(await mapProfile(config, fixture)).toEqual({ id: "1", name: "david", email: "david@example.com", image: fixture.data.profile_image })
  })
  it("asks for user:read,results:write", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://log.concept2.com/oauth/authorize", scope: "user:read,results:write" })
  })
})

describe("Dribbble", () => {
  it("maps /v2/user", async () => {
    const fixture = PROFILES.dribbble
    expect(await mapProfile(Dribbble(credentials), fixture)).toEqual({ id: "1", name: "Dan Cederholm", email: null, image: fixture.avatar_url })
  })
  it("asks for the public scope unless told public upload", () => {
    expect(authorizationShape(Dribbble(credentials)).scope).toBe("public")
    expect(authorizationShape(Dribbble({ scope: "public upload" })).scope).toBe("public upload")
    expect(Dribbble({ scope: "public upload" })).not.toHaveProperty("scope")
  })
})

describe("Eventbrite", () => {
  const config = Eventbrite(credentials)
  it("maps /v3/users/me/ with the primary address and the image on Eventbrite's image service", async () => {
    const fixture = PROFILES.eventbrite
    expect(await mapProfile(config, fixture)).toEqual({ id: "1234567890", name: "Ada Lovelace", email: "ada@example.com", image: "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F55555%2F1%2Foriginal.jpg" })
    expect(await mapProfile(config, { ...fixture, emails: [], image_id: null })).toMatchObject({ email: null, image: null })
  })
  it("asks for user.profile and authenticates in the body", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.eventbrite.com/oauth/authorize", scope: "user.profile" })
    expect(config.client).toEqual({ token_endpoint_auth_method: "client_secret_post" })
  })
})

describe("EVE Online", () => {
  const config = EVEOnline(credentials)
  it("maps the character, with its portrait", async () => {
    const fixture = PROFILES.eveonline
    expect(await mapProfile(config, fixture)).toEqual({ id: "2112625428", name: "CCP Zoetrope", email: null, image: "https://images.evetech.net/characters/2112625428/portrait?size=128" })
  })
  it("uses SSO v2 with publicData and state", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://login.eveonline.com/v2/oauth/authorize", scope: "publicData" })
    expect(url(config.token)).toBe("https://login.eveonline.com/v2/oauth/token")
    expect(config.checks).toEqual(["state"])
  })
})

describe("FACEIT", () => {
  const config = FACEIT(credentials)
  it("maps the userinfo: guid as the id, the nickname as the name when there is no name", async () => {
    const fixture = PROFILES.faceit
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.guid, name: "s1mple", email: "s1mple@example.com", image: fixture.picture })
    expect(await mapProfile(config, { ...fixture, name: "Oleksandr" })).toMatchObject({ name: "Oleksandr" })
  })
  it("uses FACEIT's accounts page, in popup mode", () => {
    expect(endpointURL(config.authorization).href).toBe("https://accounts.faceit.com/accounts?redirect_popup=true")
    expect(url(config.userinfo)).toBe("https://api.faceit.com/auth/v1/resources/userinfo")
  })
})

describe("Figma", () => {
  const config = Figma(credentials)
  it("maps /v1/me, the handle as the name", async () => {
    const fixture = PROFILES.figma
    expect(await mapProfile(config, fixture)).toEqual({ id: fixture.id, name: "Ada Lovelace", email: "ada@example.com", image: fixture.img_url })
  })
  it("asks for files:read, with state", () => {
    expect(authorizationShape(config)).toEqual({ endpoint: "https://www.figma.com/oauth", scope: "files:read" })
    expect(config.checks).toEqual(["state"])
  })
})

describe("Foursquare", () => {
  const config = Foursquare(credentials)
  it("maps response.user: first and last name, contact email, the original-size photo", async () => {
    const fixture = PROFILES.foursquare
    expect(await mapProfile(config, fixture)).toEqual({ id: "1234567", name: "Ada Lovelace", email: "ada@example.com", image: "https://fastly.4sqi.net/img/user/original/1234567-ABCDEF.jpg" })
    const firstOnly = { response: { user: { id: "7", firstName: "Ada", contact: {} } } }
    expect(await mapProfile(config, firstOnly)).toEqual({ id: "7", name: "Ada", email: null, image: null })
  })
  it("versions the userinfo call with apiVersion (default 20230131)", () => {
    expect(url(config.userinfo)).toBe("https://api.foursquare.com/v2/users/self?v=20230131")
    expect(url(Foursquare({ apiVersion: "20240601" }).userinfo)).toBe("https://api.foursquare.com/v2/users/self?v=20240601")
    expect(Foursquare({ apiVersion: "20240601" })).not.toHaveProperty("apiVersion")
  })
})

describe("Freshbooks", () => {
  it("maps response: the id as a string, first and last name", async () => {
    const fixture = PROFILES.freshbooks
    expect(await mapProfile(Freshbooks(credentials), fixture)).toEqual({ id: "2192788", name: "Ada Lovelace", email: "ada@example.com", image: null })
  })
})

describe("the providers added from Auth.js's catalogue", () => {
  it("fit in `providers`, bare or called", () => {
    const bare: Provider[] = [
      FortyTwo, Asgardeo, AzureAD, AzureADB2C, AzureDevOpsProvider, BankIDNorway, BattleNet, BeyondIdentity, Box, SAMLJackson, Bungie, ClickUp,
      Coinbase, Concept2, Descope, Dribbble, DuendeIdentityServer6, Eventbrite, EVEOnline, FACEIT, Figma, Foursquare, Freshbooks,
    ]
    const called: Provider[] = [
      BattleNet({ issuer: "https://eu.battle.net/oauth" }),
      Bungie({ apiKey: "k", profile: (p) => ({ id: p.Response.bungieNetUser.membershipId }) }),
      Concept2({ profile: ({ data }) => ({ id: String(data.id), name: data.first_name }) }),
      AzureAD({ tenantId: "common" }),
    ]
    expect(bare).toHaveLength(23)
    expect(called).toHaveLength(4)
  })
})

describe("environment, for the providers added from Auth.js's catalogue", () => {
  it("reads AUTH_<ID>_* under each id, 42-school and the hyphenated ones included", () => {
    const cases = [
      [FortyTwo, "42_SCHOOL"], [AzureADB2C, "AZURE_AD_B2C"], [AzureDevOpsProvider, "AZURE_DEVOPS"], [ClickUp, "CLICK_UP"],
      [DuendeIdentityServer6, "DUENDE_IDENTITY_SERVER6"], [SAMLJackson, "BOXYHQ_SAML"], [BeyondIdentity, "BEYONDIDENTITY"], [EVEOnline, "EVEONLINE"],
    ] as const
    for (const [factory, name] of cases) {
      const env = { [`AUTH_${name}_ID`]: `${name}-id`, [`AUTH_${name}_SECRET`]: `${name}-secret`, [`AUTH_${name}_ISSUER`]: `https://${name.toLowerCase()}.example` }
      expect(providerWithEnv(factory as Provider, env), name).toMatchObject({ clientId: `${name}-id`, clientSecret: `${name}-secret` })
    }
  })
  it("builds Descope's issuer from AUTH_DESCOPE_ID when the factory is listed bare", () => {
    expect(providerWithEnv(Descope, { AUTH_DESCOPE_ID: "P2xyz" })).toMatchObject({ clientId: "P2xyz", issuer: "https://api.descope.com/P2xyz" })
    expect(providerWithEnv(Descope, { AUTH_DESCOPE_ID: "P2xyz", AUTH_DESCOPE_ISSUER: "https://auth.acme.example/P2xyz" })).toMatchObject({ issuer: "https://auth.acme.example/P2xyz" })
  })
})

describe.each([
  ["Frontegg", Frontegg, "frontegg", "https://app-abc.frontegg.com"],
  ["Huggingface", Huggingface, "huggingface", undefined],
  ["IdentityServer4", IdentityServer4, "identity-server4", "https://demo.identityserver.io"],
  ["Kinde", Kinde, "kinde", "https://acme.kinde.com"],
  ["LINE", LINE, "line", undefined],
  ["OneLogin", OneLogin, "onelogin", "https://acme.onelogin.com/oidc/2"],
  ["OryHydra", OryHydra, "hydra", "https://my-project.projects.oryapis.com"],
] as const)("%s", (_name, factory, id, issuer) => {
  it("maps the ID token's standard claims", async () => {
    const config = factory({ ...credentials, ...(issuer && { issuer }) })
    const fixture = STANDARD_CLAIMS
    expect(config).toMatchObject({ id, type: "oidc" })
    expect(await mapProfile(config, fixture)).toEqual({ id: "248289761001", name: "Jane Doe", email: "janedoe@example.com", image: "https://example.com/janedoe/me.jpg" })
    expect(await mapProfile(config, { sub: "248289761001", preferred_username: "j.doe" })).toEqual({ id: "248289761001", name: "j.doe", email: null, image: null })
  })
})

describe("built-in issuers and checks", () => {
  it("Hugging Face and LINE discover from their own issuers", () => {
    expect(Huggingface(credentials)).toMatchObject({ issuer: "https://huggingface.co", checks: ["state", "pkce"] })
    expect(LINE(credentials)).toMatchObject({ issuer: "https://access.line.me", checks: ["state"], client: { id_token_signed_response_alg: "HS256" } })
    expect(Kinde({ issuer: "https://acme.kinde.com" }).checks).toEqual(["state", "pkce"])
  })
  it("OneLogin's issuer is its /oidc/2 URL, also when given the bare subdomain URL", () => {
    for (const issuer of ["https://acme.onelogin.com", "https://acme.onelogin.com/", "https://acme.onelogin.com/oidc/2", "https://acme.onelogin.com/oidc/2/"]) {
      expect(OneLogin({ issuer }).issuer).toBe("https://acme.onelogin.com/oidc/2")
    }
    expect(OneLogin().issuer).toBeUndefined()
  })
})

describe("environment, frontegg..osu", () => {
  it("fills AUTH_<ID>_* into the bare factories, the instance-relative ones building their endpoints from AUTH_<ID>_ISSUER", () => {
    const env = {
      AUTH_HYDRA_ID: "hydra-id",
      AUTH_HYDRA_ISSUER: "https://hydra.example",
      AUTH_IDENTITY_SERVER4_ID: "is4-id",
      AUTH_IDENTITY_SERVER4_SECRET: "is4-secret",
      AUTH_IDENTITY_SERVER4_ISSUER: "https://is4.example",
      AUTH_NEXTCLOUD_ID: "nc-id",
      AUTH_NEXTCLOUD_ISSUER: "https://cloud.example",
      AUTH_ONELOGIN_ISSUER: "https://acme.onelogin.com",
      AUTH_LINE_ID: "line-id",
    }
    expect(providerWithEnv(OryHydra, env)).toMatchObject({ id: "hydra", clientId: "hydra-id", issuer: "https://hydra.example" })
    expect(providerWithEnv(IdentityServer4, env)).toMatchObject({ id: "identity-server4", clientId: "is4-id", clientSecret: "is4-secret", issuer: "https://is4.example" })
    const nextcloud = providerWithEnv(Nextcloud, env) as OAuthConfig
    expect(nextcloud).toMatchObject({ clientId: "nc-id", issuer: "https://cloud.example", token: "https://cloud.example/apps/oauth2/api/v1/token" })
    expect(providerWithEnv(OneLogin, env)).toMatchObject({ issuer: "https://acme.onelogin.com/oidc/2" })
    expect(providerWithEnv(LINE, env)).toMatchObject({ clientId: "line-id", issuer: "https://access.line.me" })
  })

  it("every factory, bare or called, fits in `providers`", () => {
    const bare: Provider[] = [
      Frontegg, FusionAuth, HubSpot, Huggingface, IdentityServer4, Instagram, Kakao, Kinde, LINE, Logto, Mailchimp, Mailru, Mastodon,
      Mattermost, Medium, Naver, Netlify, NetSuite, Nextcloud, OneLogin, OryHydra, Osso, Osu,
    ]
    const called: Provider[] = [Kakao(credentials), NetSuite({ accountID: "1234567", profile: (p) => ({ id: String(p.id), name: p.name }) })]
    expect(bare).toHaveLength(23)
    expect(called).toHaveLength(2)
  })
})

describe("WeChat", () => {
  it("keys the user by unionid, else openid, giving no email", async () => {
    const fixture = PROFILES.wechat
    expect(await mapProfile(WeChat(credentials), fixture)).toEqual({ id: "o6_bmasdasdsad6_2sgVt7hMZOPfL", name: "NICKNAME", email: null, image: fixture.headimgurl })
    const { unionid: _omit, ...withoutUnionId } = fixture
    expect(await mapProfile(WeChat(credentials), withoutUnionId)).toMatchObject({ id: "OPENID" })
  })
})

describe("Webex", () => {
  it("maps the person with the first address", async () => {
    const fixture = PROFILES.webex
    expect(await mapProfile(Webex(credentials), fixture)).toEqual({ id: fixture.id, name: "Ada Lovelace", email: "ada@example.com", image: fixture.avatar })
  })
})

describe("Wikimedia", () => {
  const config = Wikimedia(credentials)
  it("maps the OAuth 2 profile, with no picture", async () => {
    const fixture = PROFILES.wikimedia
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
    const fixture = PROFILES.wordpress
    expect(await mapProfile(WordPress(credentials), fixture)).toEqual({ id: "18342963", name: "Ada Lovelace", email: "ada@example.com", image: "https://0.gravatar.com/avatar/ad.png" })
    expect(WordPress(credentials).name).toBe("WordPress.com")
  })
})

describe("WorkOS", () => {
  it("maps the SSO profile with the identity provider's picture", async () => {
    const fixture = PROFILES.workos
    expect(await mapProfile(WorkOS(credentials), fixture)).toEqual({ id: "prof_01DMC79VCBZ0NY2099737PSVF1", name: "Todd Rundgren", email: "todd@example.com", image: "https://lh3.googleusercontent.com/a/todd" })
    expect(await mapProfile(WorkOS(credentials), { ...fixture, first_name: null, last_name: null, raw_attributes: {} })).toMatchObject({ name: null, image: null })
  })
})

describe("Yandex", () => {
  const fixture = PROFILES.yandex
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
    const fixture = PROFILES.zoho
    expect(await mapProfile(Zoho(credentials), fixture)).toEqual({ id: "72371924", name: "Ada Lovelace", email: "ada@example.com", image: null })
  })
})
