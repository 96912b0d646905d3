// The sign-in views: a password, a texted code, or an invite (docs/panel.md, "Signing in"), and
// the signed-in strip. Everything the box sends is rendered as text by preact (never as HTML).
import { h } from "./vendor/preact.module.js";
import { useState } from "./vendor/hooks.module.js";
import htm from "./vendor/htm.module.js";
import * as api from "./api.js";
import { stopLive } from "./live.js";
import { Alert } from "./ui.js";

const html = htm.bind(h);

// The line to show for a failed call.
function problem(result) {
  if (result.status === 429) {
    return result.body.error || "too many attempts: wait a little and try again";
  }
  return result.body.error || `something went wrong (${result.status}): try again`;
}

function Field({ id, label, type = "text", autocomplete, value, onInput, inputmode, hint }) {
  return html`
    <label for=${id}>${label}</label>
    ${hint && html`<p id=${`${id}-hint`} class="note">${hint}</p>`}
    <input id=${id} name=${id} type=${type} autocomplete=${autocomplete} inputmode=${inputmode}
      aria-describedby=${hint ? `${id}-hint` : undefined}
      required value=${value} onInput=${(e) => onInput(e.currentTarget.value)} />`;
}

const modes = {
  password: "Password",
  code: "Text me a code",
  invite: "I have an invite",
};

export function SignIn({ onSignedIn, initialInvite = "" }) {
  const [mode, setMode] = useState(initialInvite ? "invite" : "password");
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [token, setToken] = useState(initialInvite);
  const [codeSent, setCodeSent] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const choose = (next) => {
    setMode(next);
    setError("");
    setPassword("");
    setCode("");
    setCodeSent("");
  };

  async function submit(event) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError("");
    let result;
    if (mode === "password") {
      result = await api.signInWithPassword(login, password);
    } else if (mode === "invite") {
      result = await api.acceptInvite(token, password);
    } else if (!codeSent) {
      result = await api.askForCode(login);
      setBusy(false);
      if (result.status === 200) {
        setCodeSent(result.body.message || "if that login has an account, a code is on its way");
      } else {
        setError(problem(result));
      }
      return;
    } else {
      result = await api.signInWithCode(login, code);
    }
    setBusy(false);
    setPassword("");
    setCode("");
    if (result.status === 200) {
      onSignedIn(result.body);
    } else {
      setError(problem(result));
    }
  }

  const submitLabel =
    mode === "password" ? "Sign in"
    : mode === "invite" ? "Set password and sign in"
    : codeSent ? "Sign in with the code"
    : "Text me a code";

  return html`
    <div class="sign-in-choice" role="group" aria-label="How to sign in">
      ${Object.entries(modes).map(([key, label]) => html`
        <button type="button" class="choice" aria-pressed=${mode === key ? "true" : "false"}
          onClick=${() => choose(key)}>${label}</button>`)}
    </div>
    <form class="sign-in" onSubmit=${submit}>
      <${Alert} text=${error} />
      ${mode === "invite"
        ? html`<${Field} id="invite" label="Invite" autocomplete="off" value=${token}
            onInput=${setToken} hint="The invite your manager gave you." />`
        : html`<${Field} id="login" label="Your id or phone number" autocomplete="username"
            value=${login} onInput=${setLogin} />`}
      ${mode !== "code" && html`<${Field} id="password" type="password"
          label=${mode === "invite" ? "Choose a password" : "Password"}
          autocomplete=${mode === "invite" ? "new-password" : "current-password"}
          value=${password} onInput=${setPassword}
          hint=${mode === "invite" ? "At least 10 characters." : undefined} />`}
      ${mode === "code" && codeSent && html`
        <p class="note" role="status">${codeSent}</p>
        <${Field} id="code" label="Code" autocomplete="one-time-code" inputmode="numeric"
          value=${code} onInput=${setCode} />`}
      <button type="submit" disabled=${busy}>${busy ? "Please wait…" : submitLabel}</button>
    </form>`;
}

export function SignedIn({ who, onSignedOut }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function out() {
    setBusy(true);
    const result = await api.signOut(who.csrf);
    setBusy(false);
    if (result.status === 200 || result.status === 401) {
      stopLive();
      onSignedOut();
    } else {
      setError(problem(result));
    }
  }
  const name = (who.person && (who.person.name || who.person.id)) || "";
  return html`
    <p class="who">Signed in as <strong>${name}</strong> <span class="role">(${who.role})</span></p>
    <button type="button" class="sign-out" onClick=${out} disabled=${busy}>Sign out</button>
    <${Alert} text=${error} />`;
}
