"""PhoneWorld speed and memory: act, observe (changed / unchanged screen), reset, fork, and
memory per idle device over 200 devices. Prints one JSON document."""

import json

from phonebuddy.phoneworld.bench import run

if __name__ == "__main__":
    print(json.dumps(run(devices=200, repeat=200), indent=2))
