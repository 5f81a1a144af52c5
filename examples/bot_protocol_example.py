"""A complete outside bot for the open bot protocol (docs/bot-protocol.md): no imports
of burraco, just JSON lines.  Try it: burraco arena "cmd:python3 bot_protocol_example.py" basic
It takes the pile when it holds 3 or more cards, melds whatever it can, else throws the
first card it may."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        answer = {"type": "ready", "name": "example"}
    elif msg["type"] == "decide":
        legal = msg["legal"]
        if "pickup" in legal and len(msg["view"]["pile"]) >= 3:
            choice = "pickup"
        else:
            melds = [a for a in legal if a.startswith(("meld", "attach"))]
            choice = (melds or legal)[0]
        answer = {"type": "action", "id": msg["id"], "action": choice}
    elif msg["type"] == "quit":
        break
    else:  # events: this bot does not read them
        continue
    print(json.dumps(answer), flush=True)
