"""PhoneWorld speed and memory: act, observe (changed / unchanged screen), reset, a task's start,
fork (at a task's start, and with every app's data built), and memory per idle device over 200
devices. Prints one JSON document."""

import json

from phonebuddy.phoneworld.bench import run

if __name__ == "__main__":
    print(json.dumps(run(devices=200, repeat=200), indent=2))
