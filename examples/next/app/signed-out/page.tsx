export default function SignedOut() {
  return <p id="signed-out">Signed out.</p>
}
