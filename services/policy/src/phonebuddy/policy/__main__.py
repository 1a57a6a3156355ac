"""`python -m phonebuddy.policy serve ...` (the same as `phonebuddy policy ...`)."""

from phonebuddy.policy.cli import app

if __name__ == "__main__":
    app()
