-- wrk script: one Cognito API operation, POSTed as AWS JSON 1.1.
--   TARGET  the X-Amz-Target header (AWSCognitoIdentityProviderService.<Operation>)
--   BODY    the JSON body; every "{n}" becomes a number unique to the request (for SignUp),
--           every "{u}" the request's number modulo USERS (to spread sign-ins over users),
--           every "{w}" WORKER (one per wrk process, so parallel wrks make distinct names)
-- Prints one JSON line with the counts and latency percentiles (microseconds).
local target = os.getenv("TARGET")
local body = os.getenv("BODY")
local users = tonumber(os.getenv("USERS") or "1")
local worker = os.getenv("WORKER") or "0"
local counter = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.1"
wrk.headers["X-Amz-Target"] = target

-- A body without placeholders (GetUser, refresh) is formatted once, at the first request (once
-- wrk has set the Host header): formatting every request cost wrk about a third of a core at
-- GetUser's rate, taken from the server it measures.
local fixed = nil

request = function()
  if fixed == nil then fixed = not body:find("{[nuw]}") and wrk.format(nil, "/", nil, body) end
  if fixed then return fixed end
  counter = counter + 1
  local text = body:gsub("{n}", tostring(counter)):gsub("{u}", tostring(counter % users)):gsub("{w}", worker)
  return wrk.format(nil, "/", nil, text)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"socket_errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max))
end
