"""The real-device gateway: phones and emulators over ADB behind PhoneBuddy's env verbs.

`phonebuddy gateway serve` drives every phone an adb server knows (or an allow-list of serials,
plus network devices it `adb connect`s) and serves lease / reset / observe / act / renew /
release for source `real` over NATS.
"""
