"""`hzai web`: the game and its analysis in a browser.

`bridge` turns every method of hzai.v3's BotService and MatchService into a Connect
endpoint (the connectrpc library's protocol: JSON or binary over HTTP POST) that forwards
the call to an hzai gRPC server; `app` serves it beside the static page in `static/`;
`serve` runs both behind uvicorn on loopback. Nothing here knows a game's rules: the
page draws Hera and Zeus from the view's JSON and any other game from its board text.
"""
