// Calls of the hzai.v3 API over the Connect protocol (unary, JSON): the same messages as
// gRPC, in protobuf's JSON mapping. The seat token travels as `authorization: Bearer`.
export class RpcError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

export async function call(service, method, request, token = null, timeoutMs = 120000) {
  const headers = { "Content-Type": "application/json", "Connect-Protocol-Version": "1",
                    "Connect-Timeout-Ms": String(timeoutMs) };
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let reply;
  try {
    reply = await fetch(`/hzai.v3.${service}/${method}`, { method: "POST", headers, body: JSON.stringify(request) });
  } catch (err) {
    throw new RpcError("unavailable", `the page's server cannot be reached (${err.message})`);
  }
  const body = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new RpcError(body.code || "unknown", body.message || `HTTP ${reply.status}`);
  return body;
}

export const bot = (method, request, token) => call("BotService", method, request, token);
export const match = (method, request, token) => call("MatchService", method, request, token);
