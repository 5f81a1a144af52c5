"""Outside bots that misbehave, for the protocol tests: ``misbehaving.py MODE [N]``.

slow     answers every Nth decision after the deadline (then its late answer is stale)
crash    exits after N decisions
liar     answers an illegal action every Nth decision, garbage every (N+1)th
mute     never says ready
"""
import json
import sys
import time

mode = sys.argv[1]
every = int(sys.argv[2]) if len(sys.argv) > 2 else 3
decisions = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "mute":
            continue
        print(json.dumps({"type": "ready", "name": mode}), flush=True)
    elif msg["type"] == "decide":
        decisions += 1
        answer = {"type": "action", "id": msg["id"], "action": msg["legal"][-1]}
        if mode == "slow" and decisions % every == 0:
            time.sleep(msg["deadline_ms"] / 1000 + 0.15)
        if mode == "crash" and decisions > every:
            print("giving up", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "liar" and decisions % every == 0:
            answer["action"] = "meld JK JK JK JK JK"
        if mode == "liar" and decisions % every == 1 and decisions > 1:
            print("this is not json", flush=True)
            continue
        print(json.dumps({"type": "info", "text": "thinking"}), flush=True)
        print(json.dumps(answer), flush=True)
    elif msg["type"] == "quit":
        break
