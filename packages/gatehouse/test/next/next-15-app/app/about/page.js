// A public page: it reads no session, so nothing about the auth configuration may fail it.
export default function About() {
  return <p id="about">About this app</p>
}
