// The panel's JSON API (docs/api.md, "Panel"): signing in and the box's resources. Each call answers
// { status, body }: status is the HTTP status (0 when the box could not be reached), body the
// parsed JSON or {}. Nothing here keeps a password or code after the call.

async function call(method, path, { body, csrf } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return { status: 0, body: { error: "the box cannot be reached: check the network" } };
  }
  let parsed = {};
  try {
    parsed = await response.json();
  } catch {
    parsed = {};
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get("Retry-After") };
}

// Who is signed in: 200 { person: { id, name }, role, method, csrf }, or 401.
export const currentSession = () => call("GET", "/api/session");
export const signInWithPassword = (login, password) =>
  call("POST", "/api/session", { body: { login, password } });
// The same answer whether or not the login is an account.
export const askForCode = (login) => call("POST", "/api/session/code", { body: { login } });
export const signInWithCode = (login, code) =>
  call("POST", "/api/session/code/verify", { body: { login, code } });
export const acceptInvite = (token, password) =>
  call("POST", "/api/invite/accept", { body: { token, password } });
export const signOut = (csrf) => call("DELETE", "/api/session", { csrf });

// The box's JSON API resources (docs/api.md) through the panel: GET as the signed-in person;
// POST with the session's CSRF token.
export const getJson = (path) => call("GET", `/api${path}`);
export const postJson = (path, body, csrf) => call("POST", `/api${path}`, { body, csrf });
