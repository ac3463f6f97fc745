// The server's REST API: JSON in and out; a refusal is thrown as an Error with the server's
// one sentence ("detail"). Signed in, every change carries the session's CSRF token.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** A REST call's answer (the parsed JSON). */
export async function api(path, options = {}) {
  return (await call(path, options)).data;
}

/** A page of a list (GET /tables, /games, /api/tables/live): the answer, and whether the
 * server says more follow (a Link header to the next page). */
export async function apiPage(path) {
  const { data, response } = await call(path, {});
  return { data, more: /rel="next"/.test(response.headers.get("Link") || "") };
}

let csrf = null;

/** The signed-in session's CSRF token (null: a guest), sent in X-CSRF-Token with every change. */
export function setCsrf(value) {
  csrf = value;
}

async function call(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(String(e.message || e), 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    let detail = data && typeof data === "object" ? data.detail : data;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
    throw new ApiError(String(detail || response.statusText), response.status);
  }
  return { data, response };
}

/** A fresh secret for one seat (32 URL-safe characters): it becomes the seat's token. */
export function newClaim() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

const SEAT_RETRY_PAUSES = [500, 1000, 2000, 4000];

/** Take a seat (POST /tables/ID/seats, or /rematch) with a claim, sent again while no answer
 * comes or the database is busy (503): the claim makes the same request take the same seat,
 * so a lost answer loses nothing. */
export async function takeSeat(path, body = {}, token = undefined) {
  const request = { method: "POST", body: { ...body, claim: newClaim() }, token };
  for (const pause of [...SEAT_RETRY_PAUSES, null]) {
    try {
      return await api(path, request);
    } catch (e) {
      if (pause === null || !(e instanceof ApiError) || ![0, 503].includes(e.status)) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
